// A stand-in for the backends run makes files for (Copilot CLI's usage file, Gemini CLI's policy),
// for the tests of those files and of the temporary folder they live in.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LIVE = (path: string): string => new URL(`../fixtures/live/${path}`, import.meta.url).pathname;
export const COPILOT_TOOL = LIVE("copilot-1.0.102/tool.jsonl");
export const COPILOT_USAGE = LIVE("copilot-1.0.102/tool.usage.json");
export const GEMINI_TEXT = LIVE("gemini-0.61.0/text.jsonl");

/** What the stand-in wrote to FAKE_RECORD. */
export interface FakeRecord {
  argv: string[];
  cwd: string;
  /** The --policy file's text as the backend could read it from its folder; null when it could not. */
  policy?: string | null;
}

/**
 * A stand-in for Copilot CLI and Gemini CLI: records its argv, its cwd and whether it could read its
 * --policy; puts what FAKE_USAGE says at its --usage-output-file path (a copy of the real usage file by
 * default, made where the path points, as Copilot does); then replays FAKE_TRANSCRIPT.
 */
export function writeFileBackend(dir: string): string {
  const path = join(dir, "file-backend");
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const argv = process.argv.slice(2);
const record = { argv, cwd: process.cwd() };
const policy = argv.indexOf("--policy");
if (policy >= 0) record.policy = fs.existsSync(argv[policy + 1]) ? fs.readFileSync(argv[policy + 1], "utf8") : null;
fs.writeFileSync(process.env.FAKE_RECORD, JSON.stringify(record));
const usage = argv.indexOf("--usage-output-file");
if (usage >= 0) {
  const file = argv[usage + 1];
  switch (process.env.FAKE_USAGE) {
    case "fifo": require("node:child_process").execFileSync("mkfifo", [file]); break;
    case "dir": fs.mkdirSync(file); fs.writeFileSync(path.join(file, "inside"), "x"); break;
    case "symlink": fs.symlinkSync(process.env.FAKE_USAGE_TARGET, file); break;
    case "huge": fs.writeFileSync(file, Buffer.alloc(5 * 1024 * 1024, 32)); break;
    case "swap-folder":
      fs.rmSync(path.dirname(file), { recursive: true });
      fs.symlinkSync(process.env.FAKE_USAGE_TARGET, path.dirname(file));
      break;
    default:
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(${JSON.stringify(COPILOT_USAGE)}, file);
  }
}
process.stdout.write(fs.readFileSync(process.env.FAKE_TRANSCRIPT));
`,
  );
  chmodSync(path, 0o755);
  return path;
}
