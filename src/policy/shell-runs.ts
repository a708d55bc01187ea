// What one simple command runs, as a shell deny pattern reads it (docs/permissions.md "Rules"): the command as
// written, without its leading assignments, its program by its name where a path names it (`/usr/bin/git`),
// the command a wrapper runs (`env`, `sudo`, `timeout`, `bash -c LINE`, `eval`, `xargs`, `find -exec`, ...)
// and git's subcommand past git's own options (`git -C DIR push`). Where that cannot be known for certain (an
// option a wrapper's reading does not know, an expansion where a wrapper's options or command stand, a shell
// reading its commands from stdin) there is no reading: any deny pattern of the tool denies the command.
import { ASSIGNMENT, type ShellPart, type ShellWord, shellParts, WILD } from "./shell-parts.js";

/** How deep wrappers and `sh -c` lines may nest before the command is given up on (denied by any deny pattern). */
const MAX_DEPTH = 8;
/** How many readings one command may have before it is given up on likewise. */
const MAX_READINGS = 64;

/** A word known only when the command runs: the arguments xargs adds, `{}` in find's -exec. */
const UNKNOWN: ShellWord = { text: "", shape: WILD, quoted: true };

const open = (word: ShellWord): boolean => word.shape.includes(WILD);
const shapeOf = (words: readonly ShellWord[]): string => words.map((word) => word.shape).join(" ");

/**
 * The shapes (src/policy/shell-parts.ts: text with a WILD where it is known only when run) a deny pattern is
 * matched against for one part, the part as written first; undefined where what it runs cannot be known.
 */
export function partReadings(part: ShellPart): string[] | undefined {
  const readings: string[] = [];
  return read(part.words, 0, readings) ? readings : undefined;
}

function read(words: readonly ShellWord[], depth: number, readings: string[]): boolean {
  if (depth > MAX_DEPTH || readings.length >= MAX_READINGS) return false;
  const shape = shapeOf(words);
  if (!readings.includes(shape)) readings.push(shape);
  let first = 0;
  while (first < words.length && !words[first]!.quoted && ASSIGNMENT.test(words[first]!.text)) first++;
  if (first > 0) return read(words.slice(first), depth + 1, readings);
  const name = words[0];
  if (name === undefined) return true;
  if (open(name)) return false;
  const slash = name.text.lastIndexOf("/");
  if (slash !== -1) {
    const base = name.text.slice(slash + 1);
    return base === "" || read([{ text: base, shape: base, quoted: true }, ...words.slice(1)], depth + 1, readings);
  }
  const args = words.slice(1);
  if (name.text === "git") {
    const rest = gitSubcommand(args);
    return rest === args || read([name, ...rest], depth + 1, readings);
  }
  const wrapper = WRAPPERS[name.text];
  if (wrapper === undefined || !Object.hasOwn(WRAPPERS, name.text)) return true;
  const runs = wrapper(args);
  if (runs === undefined) return false;
  if (typeof runs === "string") {
    const parts = shellParts(runs, depth + 1);
    return parts?.every((part) => read(part.words, depth + 1, readings)) ?? false;
  }
  return runs.every((command) => command.length === 0 || read(command, depth + 1, readings));
}

/** What a wrapper runs: commands as words, a command line (a string) split again, or undefined where unknown. */
type Runs = ShellWord[][] | string | undefined;

/** A program's options: short letters with no value, with one, with one only when attached; long names (true: takes a value). */
interface OptionSpec {
  flags?: string;
  valued?: string;
  attached?: string;
  long?: Record<string, boolean>;
  /** `nice -10`: a number as an option. */
  numeric?: boolean;
}

/** Where the operands start past the options, or undefined at an option the spec does not know (or an expansion among them). */
function operands(args: readonly ShellWord[], spec: OptionSpec): number | undefined {
  let i = 0;
  while (i < args.length) {
    const word = args[i]!;
    if (open(word)) return undefined;
    const text = word.text;
    if (text === "--") return i + 1;
    if (!text.startsWith("-") || text === "-") return i;
    if (spec.numeric && /^-[0-9]+$/.test(text)) {
      i++;
      continue;
    }
    if (text.startsWith("--")) {
      const [long] = text.slice(2).split("=", 1) as [string];
      if (spec.long === undefined || !Object.hasOwn(spec.long, long)) return undefined;
      if (spec.long[long] && !text.includes("=")) {
        if (args[i + 1] === undefined || open(args[i + 1]!)) return undefined;
        i++;
      }
      i++;
      continue;
    }
    let next = i + 1;
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      if (spec.attached?.includes(letter)) break;
      if (spec.valued?.includes(letter)) {
        if (j === text.length - 1) {
          if (args[next] === undefined || open(args[next]!)) return undefined;
          next++;
        }
        break;
      }
      if (!spec.flags?.includes(letter)) return undefined;
    }
    i = next;
  }
  return i;
}

/** The words past a wrapper's options (and `skip` more operands), or undefined where its options are not known. */
const past =
  (spec: OptionSpec, skip = 0) =>
  (args: readonly ShellWord[]): Runs => {
    const from = operands(args, spec);
    if (from === undefined || args.length < from + skip) return undefined;
    return [args.slice(from + skip)];
  };

function env(args: readonly ShellWord[]): Runs {
  let from = operands(args, {
    flags: "i0v",
    valued: "uCP",
    long: {
      "ignore-environment": false,
      null: false,
      unset: true,
      chdir: true,
      debug: false,
      "block-signal": false,
      "default-signal": false,
      "ignore-signal": false,
      "list-signal-handling": false,
    },
  });
  if (from === undefined) return undefined;
  while (from < args.length && (args[from]!.text === "-" || ASSIGNMENT.test(args[from]!.text))) from++;
  return [args.slice(from)];
}

function sudo(args: readonly ShellWord[]): Runs {
  const from = operands(args, {
    flags: "AbBEeHiKklnNPSsVvh",
    valued: "ugCDprtTUR",
    long: Object.fromEntries([
      ...[
        "askpass",
        "background",
        "bell",
        "edit",
        "help",
        "login",
        "list",
        "non-interactive",
        "preserve-env",
        "preserve-groups",
        "remove-timestamp",
        "reset-timestamp",
        "set-home",
        "shell",
        "stdin",
        "validate",
        "version",
      ].map((name) => [name, false]),
      ...[
        "user",
        "group",
        "close-from",
        "chdir",
        "host",
        "prompt",
        "role",
        "type",
        "command-timeout",
        "other-user",
        "chroot",
      ].map((name) => [name, true]),
    ]),
  });
  if (from === undefined) return undefined;
  let command = from;
  while (command < args.length && !args[command]!.quoted && ASSIGNMENT.test(args[command]!.text)) command++;
  // `sudo -s` or `sudo -i` alone is a shell reading its commands from the terminal.
  if (command === args.length)
    return args.slice(0, from).some((word) => /^-[^-]*[si]|^--(?:shell|login)$/.test(word.text)) ? undefined : [];
  return [args.slice(command)];
}

function doas(args: readonly ShellWord[]): Runs {
  const from = operands(args, { flags: "nsL", valued: "uC" });
  if (from === undefined) return undefined;
  if (from === args.length) return args.some((word) => /^-[^-]*s/.test(word.text)) ? undefined : [];
  return [args.slice(from)];
}

/** `sh -c LINE` is LINE; `sh FILE` runs a file (not read: the command as written); `sh` alone reads stdin. */
function shell(args: readonly ShellWord[]): Runs {
  let line = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (open(word)) return undefined;
    const text = word.text;
    if (text === "--" || text === "-") {
      i++;
      break;
    }
    if (text.startsWith("--")) {
      if (text === "--rcfile" || text === "--init-file") i++;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(text)) break;
    if (text.includes("c")) line = true;
    if (text.includes("s")) stdin = true;
    // `-o NAME`, `-O NAME` take one.
    if (/[oO]$/.test(text)) i++;
  }
  if (line) {
    const given = args[i];
    return given === undefined || open(given) ? undefined : given.text;
  }
  return stdin || i >= args.length ? undefined : [];
}

function xargs(args: readonly ShellWord[]): Runs {
  const from = operands(args, {
    flags: "0rtpxo",
    valued: "adELnPs",
    attached: "el",
    long: {
      null: false,
      "no-run-if-empty": false,
      verbose: false,
      interactive: false,
      exit: false,
      "open-tty": false,
      "show-limits": false,
      eof: false,
      "max-lines": false,
      "arg-file": true,
      delimiter: true,
      "max-args": true,
      "max-procs": true,
      "max-chars": true,
      "process-slot-var": true,
    },
  });
  // -I and -i (--replace) put stdin's text anywhere in the command: unknown whole (not in the spec).
  if (from === undefined) return undefined;
  const command = args.slice(from);
  return [[...(command.length > 0 ? command : [{ text: "echo", shape: "echo", quoted: false }]), UNKNOWN]];
}

/** find's -exec, -execdir, -ok and -okdir commands, `{}` unknown; a command with no `;` or `+` after it is unknown. */
function find(args: readonly ShellWord[]): Runs {
  const commands: ShellWord[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!.text)) continue;
    const end = args.findIndex((word, at) => at > i && (word.text === ";" || word.text === "+"));
    if (end === -1) return undefined;
    commands.push(args.slice(i + 1, end).map((word) => (word.text.includes("{}") ? UNKNOWN : word)));
    i = end;
  }
  return commands;
}

/** `eval WORDS`: the words joined, split again; with an expansion in them, unknown. */
function evaluated(args: readonly ShellWord[]): Runs {
  return args.some(open) ? undefined : args.map((word) => word.text).join(" ");
}

const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish"] as const;

/** The wrappers read, by the program's name: what each runs of its arguments. */
const WRAPPERS: Readonly<Record<string, (args: readonly ShellWord[]) => Runs>> = {
  ...Object.fromEntries(SHELLS.map((name) => [name, shell])),
  env,
  sudo,
  doas,
  xargs,
  find,
  eval: evaluated,
  command: past({ flags: "pvV" }),
  exec: past({ flags: "cl", valued: "a" }),
  builtin: past({}),
  nohup: past({}),
  setsid: past({ flags: "cfw", long: { ctty: false, fork: false, wait: false } }),
  nice: past({ valued: "n", numeric: true, long: { adjustment: true } }),
  stdbuf: past({ valued: "ioe", long: { input: true, output: true, error: true } }),
  time: past({
    flags: "pavq",
    valued: "fo",
    long: { format: true, output: true, append: false, verbose: false, quiet: false, portability: false },
  }),
  // Its options, then the duration, then the command.
  timeout: past(
    {
      flags: "fpv",
      valued: "ks",
      long: { foreground: false, "preserve-status": false, verbose: false, "kill-after": true, signal: true },
    },
    1,
  ),
};

/** git's options before its subcommand: with no value, and with one (`-C DIR`, or `--git-dir=DIR`). */
const GIT_FLAGS = new Set([
  "-p",
  "-P",
  "--paginate",
  "--no-pager",
  "--bare",
  "--no-replace-objects",
  "--no-lazy-fetch",
  "--no-optional-locks",
  "--no-advice",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--exec-path",
  "--html-path",
  "--man-path",
  "--info-path",
]);
const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--attr-source",
  "--list-cmds",
]);

/**
 * git's subcommand and its arguments past git's own options (the same array where there are none); one unknown
 * word where an option is not known, holds an expansion or defines an alias (`-c alias.x=...`).
 */
function gitSubcommand(args: readonly ShellWord[]): readonly ShellWord[] {
  let i = 0;
  while (i < args.length) {
    const word = args[i]!;
    const text = word.text;
    if (open(word)) return [UNKNOWN];
    if (!text.startsWith("-")) break;
    const [name, value] = text.includes("=")
      ? [text.slice(0, text.indexOf("=")), text.slice(text.indexOf("=") + 1)]
      : [text];
    if (GIT_FLAGS.has(text) || (value !== undefined && (GIT_VALUED.has(name) || name === "--exec-path"))) {
      if (name === "--config-env" && value!.toLowerCase().startsWith("alias.")) return [UNKNOWN];
      i++;
      continue;
    }
    const given = args[i + 1];
    if (!GIT_VALUED.has(text) || given === undefined || open(given)) return [UNKNOWN];
    if ((text === "-c" || text === "--config-env") && given.text.toLowerCase().startsWith("alias.")) return [UNKNOWN];
    i += 2;
  }
  return i === 0 ? args : args.slice(i);
}
