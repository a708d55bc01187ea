// The one grammar of --allow-tool/--deny-tool rules and what a rule's pattern matches (docs/permissions.md
// "Rules"): the live answerer (src/policy/permission-policy.ts) decides by it, and each backend's
// native mapping (src/backends/permissions.ts) either turns a pattern into native rules that decide the same
// or refuses it.
import { posix } from "node:path";
import { OptionError, type OptionNaming } from "../core/errors.js";
import { PORTABLE_TOOLS, type PortableTool } from "./portable-tools.js";
import { shellParts, WILD } from "./shell-parts.js";
import { partReadings } from "./shell-runs.js";

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
const SHELL_REFUSED = /[\n\0'"`\\$;&|<>()#]/;

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

/**
 * Whether some text is matched both by `pattern` (`*` any characters) and by `shape`, text in which each WILD
 * (src/policy/shell-parts.ts) stands for any characters: a command a deny pattern could match once its
 * expansions are known. Where the shape has no WILD it is glob(); else one pass over the pattern × shape table,
 * two rows kept; a table over MEETS_BOUND cells is not filled: the answer is yes (a deny pattern denies).
 */
export function globMeets(pattern: string, shape: string): boolean {
  if (!shape.includes(WILD)) return glob(pattern, shape);
  if ((pattern.length + 1) * (shape.length + 1) > MEETS_BOUND) return true;
  const n = pattern.length;
  const m = shape.length;
  let row = new Uint8Array(m + 1);
  row[0] = 1;
  for (let i = 0; ; i++) {
    const p = pattern[i];
    const next = new Uint8Array(m + 1);
    for (let j = 0; j <= m; j++) {
      if (!row[j]) continue;
      const s = shape[j];
      // The WILD empty, or the pattern's `*` taking the shape's character.
      if (j < m && (s === WILD || p === "*")) row[j + 1] = 1;
      // The `*` empty, or the WILD giving the pattern's character.
      if (i < n && (p === "*" || (j < m && s === WILD))) next[j] = 1;
      if (i < n && j < m && p === s && s !== WILD) next[j + 1] = 1;
    }
    if (i === n) return row[m] === 1;
    row = next;
  }
}

/** The most cells globMeets fills (a tenth of a second or so): a command from the agent must not hold its answer for long. */
const MEETS_BOUND = 4_000_000;

/** What a shell pattern stands for: see docs/permissions.md "Rules". */
function commandForms(pattern: string): string[] {
  const words = pattern.trim().replace(/\s+/g, " ");
  // A trailing ` *` may match nothing: `git *` is `git` too.
  if (words.endsWith(" *")) return [words, words.slice(0, -2)];
  // No `*` at the end: the command as written, or with more arguments.
  return words.endsWith("*") ? [words] : [words, `${words} *`];
}

/**
 * One simple command's text (or shape: a WILD, never matched by a character of the pattern, is allowed only
 * inside a `*`) against a shell pattern: see docs/permissions.md "Rules".
 */
export function commandMatches(pattern: string, text: string): boolean {
  return commandForms(pattern).some((form) => glob(form, text));
}

/** Whether a shell pattern could match a command's shape once its expansions are known (what a deny pattern asks). */
export function commandMeets(pattern: string, shape: string): boolean {
  return commandForms(pattern).some((form) => globMeets(form, shape));
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

/**
 * An http(s) URL as matched: the host and path it reaches. Its WHATWG form (scheme and host lower-cased, an IDN
 * host in punycode, IPv4 in dotted decimal, default port and dot segments gone), with no user or password, the
 * host's one trailing dot dropped, an IPv4-mapped IPv6 host as its IPv4 address, the percent-encoded unreserved
 * characters of its path and query decoded (the rest upper-cased). Undefined where parsers could read it
 * differently or a server could reach another path: a backslash, a blank or a control character, `@` twice in
 * its authority, a host of empty labels, an encoded `/` or `\` (`%2F`, `%5C`) in its path.
 */
export function normalUrl(url: string): string | undefined {
  if (/[\\\s\u0000-\u001f\u007f]/.test(url)) return undefined;
  const authority = /^https?:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (authority === undefined || authority.indexOf("@") !== authority.lastIndexOf("@")) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  parsed.username = "";
  parsed.password = "";
  let host = parsed.hostname;
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "" || host.startsWith(".") || host.endsWith(".") || host.includes("..")) return undefined;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) {
    const [high, low] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
    host = [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  if (host !== parsed.hostname) parsed.hostname = host;
  const pathname = recoded(parsed.pathname);
  const search = recoded(parsed.search);
  if (pathname === undefined || search === undefined || /%(?:2F|5C)/.test(pathname)) return undefined;
  // Set again: a decoded `.` may make a dot segment, resolved as the parser resolves one.
  parsed.pathname = pathname;
  parsed.search = search;
  return parsed.href;
}

/** Percent-encoded unreserved characters decoded, other escapes upper-cased. */
function recoded(text: string): string | undefined {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(character) ? character : `%${hex.toUpperCase()}`;
  });
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

/** A deny pattern holds whatever the scheme (http or https) and port: the URL is matched as if it had the pattern's. */
function urlDenied(pattern: string, url: string): boolean {
  const target = normalUrl(pattern.endsWith("*") ? pattern.slice(0, -1) : pattern);
  if (target === undefined) return false;
  const { protocol, port } = new URL(target);
  const same = new URL(url);
  same.protocol = protocol;
  same.port = port;
  return urlMatches(pattern, url) || urlMatches(pattern, same.href);
}

/** One simple command as its rules read it: see shell-parts.ts and shell-runs.ts. */
interface ReadPart {
  shape: string;
  writes: boolean;
  /** What a deny pattern is matched against; undefined where what it runs cannot be known. */
  readings: string[] | undefined;
}

/** A call's argument as its rules read it: a shell command's parts, or a normal path or URL; undefined where it cannot be read. */
type ReadArgument =
  | { kind: "command"; parts: ReadPart[] }
  | { kind: "path"; path: string }
  | { kind: "url"; url: string };

function readArgument(kind: ArgumentKind, argument: string, cwd: string | undefined): ReadArgument | undefined {
  if (kind === "command") {
    const parts = shellParts(argument);
    if (parts === undefined || parts.length === 0) return undefined;
    return {
      kind,
      parts: parts.map((part) => ({ shape: part.shape, writes: part.writes, readings: partReadings(part) })),
    };
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
 * The rules' decision on one call (each rule given names the call's tool; `targets` are what it names: its
 * command, or every path or URL it names, as the agent sent them), or undefined where no rule decides. Deny
 * beats allow. A deny rule denies a call of its tool when any target is one it matches, or cannot read (none
 * given, a command not split for certain or whose run cannot be known, a relative path with no directory to
 * resolve it from, a URL not read for certain); a compound command is denied when any of its parts is. An
 * allow rule allows when it has no pattern; else every target must be allowed, a compound command when every
 * part is allowed by some rule, and one that cannot be read, or that writes to a file, never is.
 */
export function ruleDecision(
  rules: { allow: readonly ToolRule[]; deny: readonly ToolRule[] },
  targets: readonly string[],
  cwd: string | undefined,
): RuleDecision | undefined {
  const tool = rules.deny[0]?.tool ?? rules.allow[0]?.tool;
  const kind = tool === undefined ? undefined : ARGUMENT_OF[tool];
  const reads = kind === undefined ? [] : targets.map((target) => readArgument(kind, target, cwd));
  const denied = rules.deny.find(
    (rule) =>
      rule.pattern === undefined ||
      reads.length === 0 ||
      reads.some((read) => read === undefined || denies(rule.pattern!, read, cwd)),
  );
  if (denied) return { effect: "deny", rules: [denied.given] };
  const whole = rules.allow.find((rule) => rule.pattern === undefined);
  if (whole) return { effect: "allow", rules: [whole.given] };
  if (reads.length === 0) return undefined;
  const by: string[] = [];
  for (const read of reads) {
    if (read === undefined) return undefined;
    const each = read.kind === "command" ? read.parts : [read];
    for (const one of each) {
      const allowed = rules.allow.find((rule) => allows(rule.pattern!, one, cwd));
      if (!allowed) return undefined;
      if (!by.includes(allowed.given)) by.push(allowed.given);
    }
  }
  return { effect: "allow", rules: by };
}

function denies(pattern: string, read: ReadArgument, cwd: string | undefined): boolean {
  if (read.kind === "path") return pathMatches(pattern, read.path, cwd);
  if (read.kind === "url") return urlDenied(pattern, read.url);
  return read.parts.some(
    (part) => part.readings === undefined || part.readings.some((shape) => commandMeets(pattern, shape)),
  );
}

function allows(
  pattern: string,
  one: ReadPart | { kind: "path"; path: string } | { kind: "url"; url: string },
  cwd: string | undefined,
): boolean {
  if (!("kind" in one)) return !one.writes && commandMatches(pattern, one.shape);
  return one.kind === "path" ? pathMatches(pattern, one.path, cwd) : urlMatches(pattern, one.url);
}
