// The programs the bench compares, and how to tell that a run did its job.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const MINIMAL_TRANSLATOR = fileURLToPath(new URL("./minimal-translator.mjs", import.meta.url));
export const BASELINE = "minimal node translator";

export function jqVersion() {
  try {
    return execFileSync("jq", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

/** The agentstream builds under test: this one, and with --compare another, its rows prefixed "compare: ". */
export function agentstreamBuilds(bin, compareBin) {
  return [{ bin, prefix: "" }, ...(compareBin ? [{ bin: compareBin, prefix: "compare: " }] : [])];
}

/** An agentstream command with its runtime schema check on (the default), and unless told otherwise off. */
export function withAndWithoutValidation(name, withoutValidation = true) {
  const on = { name, flags: [] };
  return withoutValidation ? [on, { name: `${name} --no-validate`, flags: ["--no-validate"] }] : [on];
}

/** agentstream's last line must be a successful run.finished, or the run measured the wrong thing. */
export function finishedCleanly(result) {
  try {
    const last = JSON.parse(result.lastLine);
    return result.code === 0 && last.type === "run.finished" && last.status === "succeeded";
  } catch {
    return false;
  }
}

/** A plain line-for-line program must write one line per native line. */
function oneLinePerLine(result, stream) {
  return result.code === 0 && result.outLines === stream.lines;
}

/** The throughput contenders for one protocol; each `args(file)` reads the native stream from a file. */
export function throughputPrograms({ builds, protocol, withJq, withoutValidation }) {
  const programs = builds.flatMap(({ bin, prefix }) =>
    withAndWithoutValidation(`${prefix}agentstream normalize`, withoutValidation).map(({ name, flags }) => ({
      name,
      command: process.execPath,
      args: (file) => [bin, "normalize", "--from", protocol, ...flags, file],
      succeeded: finishedCleanly,
      // What the run holds at its end, measured once (the validated run: it holds the most).
      heapProbe: flags.length === 0,
    })),
  );
  programs.push({
    name: BASELINE,
    command: process.execPath,
    args: (file) => [MINIMAL_TRANSLATOR, file],
    succeeded: oneLinePerLine,
  });
  if (withJq)
    programs.push({ name: "jq -c .", command: "jq", args: (file) => ["-c", ".", file], succeeded: oneLinePerLine });
  return programs;
}
