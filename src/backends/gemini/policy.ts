// Gemini CLI's policy file (TOML): the deny rules of one run. Gemini drops every rule of a file it
// cannot parse, so each name is written as a TOML basic string by TOML's own escaping rules.
import { tomlString } from "../../core/toml-string.js";

/** A policy that denies each tool; above the built-in rules, yolo's allow-all included. */
export function denyPolicy(tools: readonly string[]): string {
  return tools
    .map((tool) => `[[rule]]\ntoolName = ${tomlString(tool)}\ndecision = "deny"\npriority = 999\n`)
    .join("\n");
}
