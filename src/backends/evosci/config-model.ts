// The model an EvoScientist run uses: `EvoSci -p` takes it from its config
// file only ($XDG_CONFIG_HOME/evoscientist/config.yaml, else
// ~/.config/evoscientist/config.yaml), and its stream names none.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** The config's top-level `model:`, or undefined where there is no such file or line (EvoSci then uses its default). */
export function evosciConfigModel(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(configDir(env, cwd), "evoscientist", "config.yaml"), "utf8");
  } catch {
    return undefined;
  }
  // A top-level scalar: `model: name`, `model: "name"`, maybe with a comment after it.
  const match = /^model:[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^#\n]*?))[ \t]*(?:#.*)?$/m.exec(text);
  const model = (match?.[1] ?? match?.[2] ?? match?.[3] ?? "").trim();
  return model === "" ? undefined : model;
}

/** $XDG_CONFIG_HOME as EvoScientist reads it: blank is unset, a leading ~ is the home folder, relative is from cwd. */
function configDir(env: NodeJS.ProcessEnv, cwd: string): string {
  const home = env.HOME || homedir();
  const value = env.XDG_CONFIG_HOME;
  if (value === undefined || value.trim() === "") return join(home, ".config");
  const expanded = value === "~" || value.startsWith("~/") ? home + value.slice(1) : value;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}
