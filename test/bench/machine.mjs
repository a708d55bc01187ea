// What the figures were measured on, and which agentstream.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, release, totalmem, type } from "node:os";
import { dirname } from "node:path";
import { jqVersion } from "./programs.mjs";

const round2 = (x) => Math.round(x * 100) / 100;

export function describeMachine() {
  return {
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    jq: jqVersion(),
    load_before: loadavg().map(round2),
  };
}

export function loadNow() {
  return loadavg().map(round2);
}

export function describeAgentstream(agentstreamBin) {
  const version = execFileSync(process.execPath, [agentstreamBin, "--version"], { encoding: "utf8" }).trim();
  const repo = dirname(dirname(agentstreamBin));
  let commit = "not a git checkout";
  try {
    const head = execFileSync("git", ["-C", repo, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty =
      execFileSync("git", ["-C", repo, "status", "--porcelain", "--", "src", "bin", "schemas"], {
        encoding: "utf8",
      }).trim() !== "";
    commit = dirty ? `${head} with uncommitted changes` : head;
  } catch {
    // measured from a copy without .git
  }
  return { version, commit };
}
