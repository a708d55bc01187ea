// `run --approvals ask`: a person at the terminal answers a permission request. The question goes to the
// controlling terminal (/dev/tty), never to stdout: stdout is the stream, stdin may be the prompt or a pipe,
// stderr may be a log, and /dev/tty is the one place a person is sure to be, where there is one.
import { closeSync, openSync, writeSync } from "node:fs";
import { ReadStream } from "node:tty";
import { showControls } from "../core/control-chars.js";
import { clip } from "../core/clip.js";
import { actionText } from "../human/format.js";
import { isObject, nonEmpty, objectOrEmpty } from "../core/fields.js";
import type { CommandVerdict } from "./approve-command.js";

const TERMINAL = "/dev/tty";

/** Why no person can be asked here (no controlling terminal), or undefined where one can. */
export function noTerminal(): string | undefined {
  try {
    closeSync(openSync(TERMINAL, "r+"));
    return undefined;
  } catch (err) {
    return `${TERMINAL} cannot be opened (${(err as NodeJS.ErrnoException).code ?? "error"})`;
  }
}

/**
 * Ask the person at the terminal about one request (`line`: the input.requested event as the stream shows it,
 * secrets hidden; its control characters are shown, never sent). y or yes allows; anything else, the end of
 * the terminal's input, `timeoutMs` without an answer or the run's stop rejects.
 */
export function askPerson(line: string, options: { timeoutMs: number; stop: AbortSignal }): Promise<CommandVerdict> {
  return new Promise((resolve) => {
    if (options.stop.aborted) return resolve({ decision: "reject", problem: "the run was stopped" });
    let fd: number;
    try {
      fd = openSync(TERMINAL, "r+");
    } catch (err) {
      return resolve({ decision: "reject", problem: `no terminal (${(err as NodeJS.ErrnoException).code})` });
    }
    const input = new ReadStream(fd);
    let typed = "";
    let settled = false;
    const say = (text: string): void => {
      try {
        writeSync(fd, text);
      } catch {
        // The terminal went away: its answer is the end of input.
      }
    };
    const done = (verdict: CommandVerdict, note?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.stop.removeEventListener("abort", onStop);
      if (note !== undefined) say(`\n${note}\n`);
      // Destroying the stream closes the descriptor.
      input.destroy();
      resolve(verdict);
    };
    const onStop = (): void => done({ decision: "reject", problem: "the run was stopped" }, "(the run was stopped)");
    const seconds = options.timeoutMs / 1000;
    const timer = setTimeout(
      () =>
        done(
          { decision: "reject", problem: `no answer within ${seconds} s` },
          `(no answer within ${seconds} s: rejected)`,
        ),
      options.timeoutMs,
    );
    options.stop.addEventListener("abort", onStop, { once: true });
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      typed += chunk;
      const end = typed.indexOf("\n");
      if (end < 0) {
        typed = typed.slice(-64);
        return;
      }
      const answer = typed.slice(0, end).trim().toLowerCase();
      if (answer === "y" || answer === "yes") return done({ decision: "allow" });
      if (answer === "" || answer === "n" || answer === "no") return done({ decision: "reject" });
      done({ decision: "reject", problem: `answered ${JSON.stringify(clip(answer, 20))}, not y or n` });
    });
    input.on("end", () => done({ decision: "reject", problem: "the terminal's input ended" }, "(rejected)"));
    input.on("error", () => done({ decision: "reject", problem: "the terminal could not be read" }));
    say(`agentstream: allow ${question(line)}? [y/N] (${seconds} s, then no) `);
  });
}

/**
 * The request as the question names it: its tool and what it will run, whole ("execute: ls␊rm -rf ./build
 * (Running command)": src/human/format.ts), its control characters shown; the line's secrets are hidden already.
 */
function question(line: string): string {
  let event: Record<string, unknown> = {};
  try {
    event = objectOrEmpty(JSON.parse(line));
  } catch {
    // Never: the line is the stream's own serialization.
  }
  const actions = Array.isArray(event.actions) ? event.actions.filter(isObject) : [];
  const action = actions[0];
  if (action === undefined) return `request ${showControls(nonEmpty(event.request_id) ?? "?")}`;
  return actionText({
    name: nonEmpty(action.name) ?? "tool",
    args: objectOrEmpty(action.args),
    description: typeof action.description === "string" ? action.description : "",
    allowed_decisions: [],
  });
}
