import { showControls } from "../core/control-chars.js";
import { shellWord } from "../core/shell-word.js";
import { verifyStream } from "../verify/verify-stream.js";
import { openInput } from "./input.js";

// Enough to find the first real cause; the rest is usually its echo.
const MAX_PRINTED = 100;

/** `agentstream verify`: problems and a summary on stderr, nothing on stdout; exit 0 when clean, 1 otherwise. */
export async function verifyCommand(file: string): Promise<void> {
  // The verdict is the exit code: a stderr that cannot be written (full, closed) must not change it.
  process.stderr.on("error", () => {});
  const input = openInput(file);
  let printed = 0;
  const summary = await verifyStream(input, {
    onProblem: ({ line, message }) => {
      if (printed >= MAX_PRINTED) return;
      printed++;
      // A problem may quote the stream's own text.
      process.stderr.write(`line ${line}: ${showControls(message)}\n`);
    },
  });
  if (summary.problems > printed) process.stderr.write(`... and ${summary.problems - printed} more\n`);
  const lines = plural(summary.lines, "line");
  process.stderr.write(
    summary.problems === 0 ? `ok: ${lines}\n` : `${plural(summary.problems, "problem")} in ${lines}\n`,
  );
  if (summary.problems > 0 && summary.looksNative) {
    const shownFile = file === "-" ? "" : ` ${shellWord(file)}`;
    process.stderr.write(
      `hint: this looks like a backend's native stream, not a canonical one: run normalize first: agentstream normalize${shownFile} | agentstream verify\n`,
    );
  }
  process.exitCode = summary.problems === 0 ? 0 : 1;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
