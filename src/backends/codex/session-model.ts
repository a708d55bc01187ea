// The model a Codex run used, from the session record Codex writes as it runs
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl): its
// `turn_context` lines name the model of each turn. `codex exec --json` names
// none, so this is where the default model (config.toml, a profile, `-c model=`) shows.
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** How many day folders are searched, newest first (a resumed session's record is in the day it began). */
const DAYS_SEARCHED = 62;
/** Only the end of a long record is read: the last turn's context is near it. */
const TAIL_BYTES = 4 * 1024 * 1024;
const TURN_CONTEXT = '"type":"turn_context"';

/** The model of the session's last turn, or undefined where its record cannot be found or names none. */
export function codexSessionModel(env: NodeJS.ProcessEnv, sessionId: string | undefined): string | undefined {
  if (sessionId === undefined || !/^[\w-]+$/.test(sessionId)) return undefined;
  const home = env.CODEX_HOME || join(env.HOME || homedir(), ".codex");
  const record = findRecord(join(home, "sessions"), `-${sessionId}.jsonl`);
  return record === undefined ? undefined : lastTurnModel(record);
}

function findRecord(sessions: string, suffix: string): string | undefined {
  let searched = 0;
  for (const year of newestFirst(sessions))
    for (const month of newestFirst(join(sessions, year)))
      for (const day of newestFirst(join(sessions, year, month))) {
        const dir = join(sessions, year, month, day);
        const name = entries(dir).find((n) => n.startsWith("rollout-") && n.endsWith(suffix));
        if (name !== undefined) return join(dir, name);
        if (++searched >= DAYS_SEARCHED) return undefined;
      }
  return undefined;
}

function lastTurnModel(path: string): string | undefined {
  let text: string;
  try {
    text = readTail(path);
  } catch {
    return undefined;
  }
  for (let at = text.lastIndexOf(TURN_CONTEXT); at >= 0; at = text.lastIndexOf(TURN_CONTEXT, at - 1)) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = text.indexOf("\n", at);
    try {
      const line = JSON.parse(text.slice(start, end < 0 ? undefined : end)) as { payload?: { model?: unknown } };
      if (typeof line.payload?.model === "string" && line.payload.model !== "") return line.payload.model;
    } catch {
      // A line still being written, or cut by the tail: try the one before.
    }
  }
  return undefined;
}

function readTail(path: string): string {
  const fd = openSync(path, "r");
  try {
    const size = statSync(path).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
}

/** Numeric folder names (2026, 12, 04), newest first. */
function newestFirst(dir: string): string[] {
  return entries(dir)
    .filter((n) => /^\d+$/.test(n))
    .sort((a, b) => Number(b) - Number(a));
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
