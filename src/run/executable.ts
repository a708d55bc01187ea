import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { OptionError } from "../core/errors.js";
import type { LaunchSpec } from "./launch-spec.js";

/** `tried`: the path --bin or the variable named, when that is what is missing (the command line shows it). */
export type ExecutableLookup =
  | { found: true; path: string }
  | { found: false; message: string; hint: string; tried?: string };

/**
 * Refuses, before anything starts, a run that names no executable where the backend has none of its own to
 * look for on PATH (the generic ACP backend: any agent that speaks ACP), and an empty --bin.
 */
export function checkExecutableNamed(
  spec: LaunchSpec & { name: string },
  bin: string | undefined,
  env: NodeJS.ProcessEnv,
): void {
  if (bin === "")
    throw new OptionError(
      (name) => `${name("bin")} "": is empty`,
      () => "give the executable's path",
    );
  if (spec.executableNames.length > 0 || bin !== undefined || nonEmpty(env[spec.binEnvVar]) !== undefined) return;
  throw new OptionError(
    (name) =>
      `${name("bin")} is required with ${name("backend")} ${spec.name}: an ${spec.displayName} has no executable of its own to look for on PATH`,
    (name) =>
      `name the agent's executable with ${name("bin")} PATH (its own arguments with ${name("backendArgs")}) or ${spec.binEnvVar}=PATH: ${spec.install}`,
  );
}

/**
 * Where the backend's executable is: `--bin`, else the backend's
 * AGENTSTREAM_*_BIN variable, else the first of its usual names on PATH.
 * Relative paths are resolved against agentstream's own working directory.
 */
export function findExecutable(spec: LaunchSpec, bin: string | undefined, env: NodeJS.ProcessEnv): ExecutableLookup {
  const hint = `install it (${spec.install}) or point to it with --bin PATH or ${spec.binEnvVar}=PATH`;
  const given = bin ?? nonEmpty(env[spec.binEnvVar]);
  if (given !== undefined) {
    // The event says where a path it was not given came from; a path the caller gave is named as given, by
    // no flag or option name, since run.finished is the same for the CLI and the library.
    const source = bin !== undefined ? "" : ` (from ${spec.binEnvVar})`;
    const path = resolve(given);
    const problem = whyNotRunnable(path);
    if (problem)
      return {
        found: false,
        message: `${spec.displayName} executable ${path}${source} ${problem}`,
        hint,
        tried: path,
      };
    return { found: true, path };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    for (const name of spec.executableNames) {
      for (const ext of executableExtensions(env)) {
        const path = resolve(join(isAbsolute(dir) ? dir : resolve(dir), name + ext));
        if (!whyNotRunnable(path)) return { found: true, path };
      }
    }
  }
  return {
    found: false,
    message: `${spec.displayName} executable not found: looked for ${spec.executableNames.join(", ")} on PATH`,
    hint,
  };
}

function whyNotRunnable(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return "is a directory";
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "does not exist" : code === "EACCES" ? "is not executable" : (err as Error).message;
  }
}

function executableExtensions(env: NodeJS.ProcessEnv): string[] {
  if (process.platform !== "win32") return [""];
  return ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";").filter(Boolean)];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
