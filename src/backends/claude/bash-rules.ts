import type { NativePatterns } from "../definition.js";

/**
 * A portable `shell(PATTERN)` as Claude Code's `Bash(...)` rules (docs/protocols/claude.md, "Permissions"): its
 * matcher (utils/permissions/shellRuleMatching.ts in the source its npm package's source map published,
 * 2.1.x: `matchWildcardPattern("jq *")` is `^jq( .*)?$`) reads a pattern with no `*` as the whole command,
 * `*` as any characters (spaces included), and a trailing ` *` as optional where it is the pattern's one
 * `*`; it splits a compound command and asks every part to be allowed, any part denied denying it. So
 * agentstream's `P` (the command, or it with more arguments) is `Bash(P)` and `Bash(P *)`, and its `P *`
 * (also `P` alone) is `Bash(P *)` and `Bash(P)`. (`P:*`, its prefix form, is refused by the grammar itself.)
 * A deny pattern is refused: agentstream's reads a command past redirections, wrappers, paths, git's options and
 * expansions (src/policy/shell-runs.ts); Claude Code 2.1.336's binary unwraps wrappers of its own list (time,
 * command, builtin, noglob, env, nice, nohup, sudo, doas, stdbuf, timeout; it asks for watch, setsid and the
 * like) by rules of its own, and no run shows it denies each of the conformance table's spellings, so a deny
 * pattern goes over ACP (`--transport acp`), where agentstream answers.
 */
export const CLAUDE_PATTERNS: NativePatterns = {
  tools: ["shell"],
  denies: [],
  rules(native, pattern) {
    const words = pattern.trim().replace(/\s+/g, " ");
    if (words.endsWith(" *")) return [`${native}(${words})`, `${native}(${words.slice(0, -2)})`];
    if (words.endsWith("*")) return [`${native}(${words})`];
    return [`${native}(${words})`, `${native}(${words} *)`];
  },
};
