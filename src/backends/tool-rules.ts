// The one grammar of --allow-tool/--deny-tool rules and what a rule's pattern matches (docs/permissions.md
// "Rules"): the live answerer (src/backends/acp/permission-policy.ts) decides by it, and each backend's
// native mapping (src/backends/permissions.ts) either turns a pattern into native rules that decide the same
// or refuses it.
import { posix } from "node:path";
import { OptionError, type OptionNaming } from "../core/errors.js";
import { PORTABLE_TOOLS, type PortableTool } from "./definition.js";
import { shellParts } from "./shell-parts.js";

/** A rule as written: `NAME` or `NAME(PATTERN)`. */
export interface RuleText {
  given: string;
  name: string;
  pattern?: string;
}

/** What a portable tool's pattern is matched against: a shell command, a path, or a URL; web_search takes none. */
export type ArgumentKind = "command" | "path" | "url";

export const ARGUMENT_OF: Readonly<Record<PortableTool, ArgumentKind | undefined>> = {
  shell: "command",
  read: "path",
  write: "path",
  edit: "path",
  web_fetch: "url",
  web_search: undefined,
};

/** A rule in a portable name, its pattern checked. */
export interface ToolRule {
  given: string;
  tool: PortableTool;
  pattern?: string;
}

type RuleOption = "allowTools" | "denyTools";
const bothOptions = (say: OptionNaming): string => `${say("allowTools")}/${say("denyTools")}`;

/** The option a rule was given in, or both where the caller does not say. */
const optionOf =
  (option: RuleOption | undefined) =>
  (say: OptionNaming): string =>
    option ? say(option) : bothOptions(say);

// A name: no blank, no parenthesis, no comma (a backend's list flag, pi's `--exclude-tools a,b`, Gemini
// CLI's and Claude Code's tool lists, would split it in two).
const RULE = /^([^\s(),]+)(?:\((.*)\))?$/s;

/** `NAME` or `NAME(PATTERN)`, or an OptionError (exit 2) saying what is wrong. */
export function parseRuleText(given: string, option?: RuleOption): RuleText {
  const said = optionOf(option);
  const match = RULE.exec(given);
  if (!match) {
    const comma = /^[^(]*,/.test(given);
    throw new OptionError(
      (say) =>
        comma
          ? `${said(say)} ${JSON.stringify(given)}: a tool name holds no comma (a backend's list of tools would split it)`
          : `${said(say)}: ${JSON.stringify(given)} is not a tool name (NAME or NAME(PATTERN))`,
      () => "give each tool in a rule of its own",
    );
  }
  const name = match[1]!;
  const pattern = match[2];
  return { given, name, ...(pattern !== undefined ? { pattern } : {}) };
}

export function isPortable(name: string): name is PortableTool {
  return (PORTABLE_TOOLS as readonly string[]).includes(name);
}

// In a shell pattern: the words of one simple command, unquoted. Quotes, expansions, operators and
// redirections would never match a part's text, so they are refused rather than left to deny nothing.
const SHELL_REFUSED = /[\n'"`\\$;&|<>()#]/;

/**
 * A rule in a portable name with its pattern checked for its tool (docs/permissions.md "Rules"), or an
 * OptionError. A name not portable is left to the caller (undefined).
 */
export function portableRule(text: RuleText, option?: RuleOption): ToolRule | undefined {
  if (!isPortable(text.name)) return undefined;
  const { given, name: tool, pattern } = text;
  if (pattern === undefined) return { given, tool };
  const said = optionOf(option);
  const refuse = (why: string, hint?: string): never => {
    throw new OptionError((say) => `${said(say)} ${given}: ${why}`, hint === undefined ? undefined : () => hint);
  };
  const kind = ARGUMENT_OF[tool];
  if (kind === undefined) refuse(`${tool} takes no pattern`, `name the whole tool (${tool})`);
  if (pattern.trim() === "") refuse("an empty pattern matches nothing", `name the whole tool (${tool})`);
  if (kind === "command") {
    // The old NAME(PREFIX) rule `shell(git )` meant "starts with `git `": it is written `shell(git *)` now.
    if (/\s$/.test(pattern))
      refuse(
        "a pattern ending in a blank is the old prefix form",
        `write ${tool}(${pattern.trimEnd()} *) for the command and any arguments`,
      );
    // Claude Code's and Copilot CLI's prefix form: read as a glob it would be `git:` and more, denying nothing.
    if (pattern.endsWith(":*"))
      refuse(
        "`:*` is another tool's prefix form, not agentstream's",
        `write ${tool}(${pattern.slice(0, -2).trimEnd()} *) for the command and any arguments`,
      );
    if (SHELL_REFUSED.test(pattern))
      refuse(
        "a shell pattern is the words of one command: no quotes, escapes, expansions, operators or redirections",
        "give one rule per command; a compound command is allowed when each of its commands is",
      );
  }
  if (kind === "path") {
    if (pattern.startsWith("~"))
      refuse("~ is not expanded in a pattern", "write the path from / or from the run's directory");
    if (pattern.includes("\0") || pattern.split("/").some((segment) => segment === ".."))
      refuse("a path pattern names a path without `..`", "write the path it stands for");
  }
  if (kind === "url") {
    const star = pattern.indexOf("*");
    const prefix = pattern.endsWith("*") ? pattern.slice(0, -1) : pattern;
    if (star !== -1 && star !== pattern.length - 1)
      refuse("a URL pattern takes `*` only at its end", "write the URL up to the part that may vary, then *");
    if (normalUrl(prefix) === undefined)
      refuse("not an http or https URL", "write https://HOST/ or https://HOST/PATH*");
    if (pattern.endsWith("*") && !/^https?:\/\/[^/]+\//i.test(prefix))
      refuse("a `*` in a URL's host matches other hosts", "end the host with / before the *");
  }
  return { given, tool, pattern };
}

/**
 * `*` any characters (none included), everything else itself. Linear in the text for each `*` (no regular
 * expression: a pattern of many `*` against a long command from the agent must not backtrack for long).
 */
export function glob(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  // Where the last `*` was, and the text position it is tried from.
  let star = -1;
  let from = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      from = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++from;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

/** One simple command's text against a shell pattern: see docs/permissions.md "Rules". */
export function commandMatches(pattern: string, text: string): boolean {
  const words = pattern.trim().replace(/\s+/g, " ");
  if (glob(words, text)) return true;
  // A trailing ` *` may match nothing: `git *` is `git` too.
  if (words.endsWith(" *")) return glob(words.slice(0, -2), text);
  // No `*` at the end: the command as written, or with more arguments.
  return !words.endsWith("*") && glob(`${words} *`, text);
}

/** A path as matched: absolute (a relative one from `cwd`), `.` and `..` resolved, no trailing slash. Symlinks are not followed. */
export function normalPath(path: string, cwd: string | undefined): string | undefined {
  if (path === "" || path.includes("\0") || path.startsWith("~")) return undefined;
  if (path.startsWith("file://")) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return undefined;
    }
  }
  if (!path.startsWith("/") && cwd === undefined) return undefined;
  return path.startsWith("/") ? posix.resolve(path) : posix.resolve(cwd!, path);
}

function pathMatches(pattern: string, path: string, cwd: string | undefined): boolean {
  const normal = normalPath(pattern, cwd);
  if (normal === undefined) return false;
  if (glob(normal, path)) return true;
  if (normal.endsWith("*")) return false;
  return glob(normal === "/" ? "/*" : `${normal}/*`, path);
}

/** An http(s) URL as matched: its WHATWG form (host lowercased, default port and dot segments gone). */
export function normalUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function urlMatches(pattern: string, url: string): boolean {
  if (pattern.endsWith("*")) {
    const prefix = normalUrl(pattern.slice(0, -1));
    return prefix !== undefined && url.startsWith(prefix);
  }
  const normal = normalUrl(pattern);
  if (normal === undefined) return false;
  if (url === normal) return true;
  if (normal.endsWith("/")) return url.startsWith(normal);
  return ["/", "?", "#"].some((boundary) => url.startsWith(normal + boundary));
}

/** A call's argument as its rules read it: a shell command's parts, or a normal path or URL; undefined where it cannot be read. */
type ReadArgument =
  | { kind: "command"; parts: { text: string; bare: string }[] }
  | { kind: "path"; path: string }
  | { kind: "url"; url: string };

function readArgument(
  kind: ArgumentKind,
  argument: string | undefined,
  cwd: string | undefined,
): ReadArgument | undefined {
  if (argument === undefined) return undefined;
  if (kind === "command") {
    const parts = shellParts(argument);
    return parts && parts.length > 0 ? { kind, parts } : undefined;
  }
  if (kind === "path") {
    const path = normalPath(argument, cwd);
    return path === undefined ? undefined : { kind, path };
  }
  const url = normalUrl(argument);
  return url === undefined ? undefined : { kind, url };
}

/** What the rules decided of one call, and by which rules (as given). */
export interface RuleDecision {
  effect: "deny" | "allow";
  rules: string[];
}

/**
 * The rules' decision on one call (each rule given names the call's tool; `argument` is its command, path
 * or URL as the agent sent it), or undefined where no rule decides. Deny beats allow. A deny rule denies a
 * call of its tool whose argument it matches, or cannot read (absent, a command not split for certain, a
 * relative path with no directory to resolve it from); a compound command is denied when any of its parts
 * is. An allow rule allows when it has no pattern, or when it matches the argument; a compound command is
 * allowed when every part is allowed by some rule, and one that cannot be read never is.
 */
export function ruleDecision(
  rules: { allow: readonly ToolRule[]; deny: readonly ToolRule[] },
  argument: string | undefined,
  cwd: string | undefined,
): RuleDecision | undefined {
  const tool = rules.deny[0]?.tool ?? rules.allow[0]?.tool;
  const kind = tool === undefined ? undefined : ARGUMENT_OF[tool];
  const read = kind === undefined ? undefined : readArgument(kind, argument, cwd);
  const denied = rules.deny.find(
    (rule) =>
      rule.pattern === undefined ||
      read === undefined ||
      (read.kind === "command"
        ? read.parts.some(
            (part) => commandMatches(rule.pattern!, part.text) || commandMatches(rule.pattern!, part.bare),
          )
        : readMatches(rule.pattern, read, cwd)),
  );
  if (denied) return { effect: "deny", rules: [denied.given] };
  const whole = rules.allow.find((rule) => rule.pattern === undefined);
  if (whole) return { effect: "allow", rules: [whole.given] };
  if (read === undefined) return undefined;
  if (read.kind !== "command") {
    const allowed = rules.allow.find((rule) => readMatches(rule.pattern!, read, cwd));
    return allowed ? { effect: "allow", rules: [allowed.given] } : undefined;
  }
  // Every part allowed, each by some rule.
  const by: string[] = [];
  for (const part of read.parts) {
    const allowed = rules.allow.find((rule) => commandMatches(rule.pattern!, part.text));
    if (!allowed) return undefined;
    if (!by.includes(allowed.given)) by.push(allowed.given);
  }
  return { effect: "allow", rules: by };
}

/** A path or URL pattern against the argument as read. */
function readMatches(pattern: string, read: ReadArgument & { kind: "path" | "url" }, cwd: string | undefined): boolean {
  return read.kind === "path" ? pathMatches(pattern, read.path, cwd) : urlMatches(pattern, read.url);
}
