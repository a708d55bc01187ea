// What the compare tests share: a scratch git repository, the stand-in agent, the rows and the agent's log.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parseJsonl } from "./cli.js";

export const COMPARE_AGENT = fileURLToPath(new URL("../fixtures/backends/compare-agent.mjs", import.meta.url));

/** A git repository with one commit (a.txt), in `dir`. */
export function scratchRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]): void =>
    void execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir });
  git("init", "-q");
  writeFileSync(join(dir, "a.txt"), "one\n");
  git("add", ".");
  git("commit", "-qm", "first");
  return dir;
}

export interface Row {
  cell_id: string;
  task: string;
  backend: string;
  model: string | null;
  repeat: number;
  status: string;
  exit_code: number | null;
  error: { code: string; message: string } | null;
  setup: string;
  check: string;
  passed: boolean;
  cost_usd: number | null;
  duration_ms: number | null;
  files_changed: number | null;
  lines_added: number | null;
  resumed: boolean;
  paths: Record<string, string | null>;
}

const validateRow = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(fileURLToPath(new URL("../../schemas/compare-row-v1.schema.json", import.meta.url)), "utf8")),
);

/** The rows of compare's stdout, each checked against schemas/compare-row-v1.schema.json (a row that fails throws). */
export function rowsOf(stdout: string): Row[] {
  const rows = parseJsonl(stdout);
  for (const row of rows)
    if (!validateRow(row))
      throw new Error(`a row the schema refuses: ${JSON.stringify(validateRow.errors)}\n${JSON.stringify(row)}`);
  return rows as unknown as Row[];
}

export interface AgentNote {
  at: "start" | "end" | "stopped" | "holding" | "ignored";
  pid: number;
  model: string;
  prompt: string;
  cwd: string;
}

export function agentLog(path: string): AgentNote[] {
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  return parseJsonl(text) as unknown as AgentNote[];
}

/** The most agents running at once, as their log's starts and ends say (appended in the order they happened). */
export function mostAtOnce(log: readonly AgentNote[]): number {
  let running = 0;
  let most = 0;
  for (const note of log) {
    if (note.at === "start") running++;
    else if (note.at === "end" || note.at === "stopped") running--;
    most = Math.max(most, running);
  }
  return most;
}

/** The stand-in as compare's agents: `claude` with this bin, one per model. */
export function agents(...models: string[]): string[] {
  return ["--backend", models.map((model) => `claude:${model}`).join(","), "--bin", COMPARE_AGENT];
}
