// With AGENTSTREAM_LIVE_CAPTURE=1, each run of the ACP live suite also keeps what the agent wrote on stdout,
// through a tee between it and agentstream (acp-tee.sh), as a golden of the default suite:
// test/fixtures/golden/acp-live/<agent>-<scenario>.native.jsonl, with the options that say how the run
// ended (the agent's exit, agentstream's own stop: a signal or a limit) and the outcome the live run had
// (manifest.json; test/e2e/run/acp-live-captures.test.ts checks the recording ends the same).
// `UPDATE_GOLDEN=1 npx vitest run --config test/vitest.config.ts test/unit/backends/golden.test.ts` then writes their canonical streams.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AcpLaunch, LiveRun, LiveTarget } from "./live-run.js";

export const CAPTURING = process.env.AGENTSTREAM_LIVE_CAPTURE === "1";
const CAPTURE_DIR = fileURLToPath(new URL("../../fixtures/golden/acp-live/", import.meta.url));
const TEE = fileURLToPath(new URL("./acp-tee.sh", import.meta.url));
/** Longer command lists (Qwen Code: its bundled skills, about 550 kB in one line) are cut to their first few commands. */
const LONGEST_KEPT = 4 * 1024;
const COMMANDS_KEPT = 3;

export interface CaptureEntry {
  file: string;
  agent: string;
  scenario: string;
  args: string[];
  live: { status: string; exit_code: number; error_code: string | null };
  trimmed?: string;
}

/** The target and launch that run it through the tee into `scratch` (the run's stdout copy). */
export function teed(target: LiveTarget, acp: AcpLaunch, scratch: string): { target: LiveTarget; acp: AcpLaunch } {
  return {
    target: { ...target, executable: TEE },
    acp: { ...acp, env: { ...acp.env, AGENTSTREAM_TEE_AGENT: target.executable, AGENTSTREAM_TEE_TO: scratch } },
  };
}

/** Keep the copy as a golden: its native stream, its options, and its entry in the manifest (returned). */
export function keepCapture(
  target: LiveTarget,
  name: string,
  scratch: string,
  run: LiveRun,
  args: string[],
): CaptureEntry {
  mkdirSync(CAPTURE_DIR, { recursive: true });
  const base = `${target.backend}-${name}`;
  const { text, trimmed } = trimLongLines(readFileSync(scratch, "utf8"));
  rmSync(scratch, { force: true });
  writeFileSync(join(CAPTURE_DIR, `${base}.native.jsonl`), text);
  const finished = run.finished;
  const interruption =
    finished.error?.code === "cancelled"
      ? { kind: "signal", signal: "SIGINT" }
      : finished.error?.code === "budget"
        ? { kind: "budget", message: finished.error.message }
        : undefined;
  const options = {
    from: "acp",
    end: { backendExit: finished.backend_exit ?? null, stderrTail: [] },
    ...(interruption ? { interruption } : {}),
  };
  writeFileSync(join(CAPTURE_DIR, `${base}.options.json`), `${JSON.stringify(options, null, 2)}\n`);
  return {
    file: `${base}.native.jsonl`,
    agent: `${target.package}@${target.version}`,
    scenario: name,
    args,
    live: { status: finished.status, exit_code: finished.exit_code, error_code: finished.error?.code ?? null },
    ...(trimmed ? { trimmed } : {}),
  };
}

/** Merge entries into the manifest (one per file, sorted), so agents captured apart share it. */
export function writeManifest(entries: CaptureEntry[]): void {
  const path = join(CAPTURE_DIR, "manifest.json");
  let kept: CaptureEntry[] = [];
  try {
    kept = JSON.parse(readFileSync(path, "utf8")) as CaptureEntry[];
  } catch {
    // None yet.
  }
  const files = new Set(entries.map((e) => e.file));
  const all = [...kept.filter((e) => !files.has(e.file)), ...entries].sort((a, b) => a.file.localeCompare(b.file));
  writeFileSync(path, `${JSON.stringify(all, null, 1)}\n`);
}

function trimLongLines(text: string): { text: string; trimmed?: string } {
  let count = 0;
  const lines = text.split("\n").map((line) => {
    if (line.length <= LONGEST_KEPT) return line;
    const message = JSON.parse(line);
    const update = message.params?.update;
    if (update?.sessionUpdate !== "available_commands_update") return line;
    count++;
    update.availableCommands = update.availableCommands.slice(0, COMMANDS_KEPT);
    // Qwen Code's whole skills beside them (about 34 kB each).
    if (Array.isArray(update._meta?.availableSkillDetails)) update._meta.availableSkillDetails = [];
    return JSON.stringify(message);
  });
  return count === 0
    ? { text }
    : {
        text: lines.join("\n"),
        trimmed: `${count} available_commands_update line(s) over ${LONGEST_KEPT} bytes cut to their first ${COMMANDS_KEPT} commands (and no _meta.availableSkillDetails)`,
      };
}
