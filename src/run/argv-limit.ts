// Whether a command line and its environment fit what the system lets a program be started with:
// checked before anything starts, so that an over-long one is the caller's mistake said as such (exit 2),
// never a backend that "could not be started (E2BIG)" after run.started.
import { readFileSync } from "node:fs";

/** Linux: the longest argument or environment string, its closing NUL included (MAX_ARG_STRLEN, 32 pages). */
export const MAX_ARG_STRLEN = 128 * 1024;

/** What does not fit: one argument (by its index in `args`), or everything together. */
export type ArgvOverflow =
  | { kind: "argument"; index: number; bytes: number; limit: number }
  | { kind: "environment"; name: string; bytes: number; limit: number }
  | { kind: "total"; bytes: number; environmentBytes: number; limit: number };

// Room kept for what the kernel also puts there (the executable's path again, alignment).
const MARGIN_BYTES = 4096;
const POINTER_BYTES = 8;

/**
 * What of `file args...` with `env` would not fit the system's limits (Linux: each string at most
 * MAX_ARG_STRLEN; all of them, with a pointer each, at most a quarter of the stack limit, capped at 6 MiB
 * and at least 128 KiB; macOS: 1 MiB in all). Undefined when it fits, or the system's limit is unknown.
 */
export function argvOverflow(file: string, args: readonly string[], env: NodeJS.ProcessEnv): ArgvOverflow | undefined {
  const linux = process.platform === "linux";
  const strings = args.map((arg) => Buffer.byteLength(arg) + 1);
  if (linux) {
    const index = strings.findIndex((bytes) => bytes > MAX_ARG_STRLEN);
    if (index !== -1) return { kind: "argument", index, bytes: strings[index]! - 1, limit: MAX_ARG_STRLEN - 1 };
  }
  let environmentBytes = 0;
  let variables = 0;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const bytes = Buffer.byteLength(name) + 1 + Buffer.byteLength(value) + 1;
    if (linux && bytes > MAX_ARG_STRLEN)
      return { kind: "environment", name, bytes: bytes - 1, limit: MAX_ARG_STRLEN - 1 };
    environmentBytes += bytes;
    variables++;
  }
  const limit = totalLimit();
  if (limit === undefined) return undefined;
  // The executable's path is there twice: as the program run and as argv[0].
  const fileBytes = 2 * (Buffer.byteLength(file) + 1);
  const bytes =
    fileBytes +
    strings.reduce((sum, n) => sum + n, 0) +
    environmentBytes +
    (args.length + 1 + variables + 2) * POINTER_BYTES;
  return bytes + MARGIN_BYTES > limit
    ? { kind: "total", bytes, environmentBytes, limit: limit - MARGIN_BYTES }
    : undefined;
}

/** The most bytes a started program's arguments and environment may take together, where known. */
function totalLimit(): number | undefined {
  if (process.platform === "darwin") return 1024 * 1024;
  if (process.platform !== "linux") return undefined;
  const stack = softStackLimit();
  const cap = ((8 * 1024 * 1024) / 4) * 3;
  return Math.max(Math.min(cap, stack === undefined ? cap : Math.floor(stack / 4)), 128 * 1024);
}

/** The soft stack limit (ulimit -s), which a started program inherits: Infinity when unlimited. */
function softStackLimit(): number | undefined {
  let text: string;
  try {
    text = readFileSync("/proc/self/limits", "utf8");
  } catch {
    return undefined;
  }
  const soft = /^Max stack size\s+(\S+)/m.exec(text)?.[1];
  if (soft === undefined) return undefined;
  return soft === "unlimited" ? Number.POSITIVE_INFINITY : Number(soft) || undefined;
}
