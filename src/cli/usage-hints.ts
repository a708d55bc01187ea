// The hints agentstream adds under commander's usage errors, where a newcomer's first
// mistakes need one: a prompt typed as several unquoted words, and a flag of one command
// given to another that has a counterpart for it (normalize's --from is run's --backend).
// The user's words in a hint's command are quoted for the shell (shellWord).
import { shellWord } from "../core/shell-word.js";

/** What a hint needs of the command that refused its arguments (a commander Command). */
export interface RefusingCommand {
  name(): string;
  /** The operands and unknown arguments commander was left with (set before it reports). */
  readonly args: string[];
  opts(): Record<string, unknown>;
  readonly parent: RefusingCommand | null;
}

interface Counterpart {
  /** The flag this command takes instead. */
  flag: string;
  /** Shown after it when the user gave no value. */
  placeholder: string;
  /** Why the given flag is not this command's. */
  why: string;
}

// Keyed by the command's name (`export otlp` is "otlp"), then by the flag given.
const COUNTERPARTS: Record<string, Record<string, Counterpart>> = {
  run: {
    "--from": {
      flag: "--backend",
      placeholder: "NAME",
      why: "--from is normalize's, for a recorded stream: agentstream normalize --from NAME FILE",
    },
    "--endpoint": { flag: "--otlp", placeholder: "URL", why: "--endpoint is export otlp's" },
  },
  normalize: {
    "--backend": {
      flag: "--from",
      placeholder: "NAME",
      why: "--backend is run's, the agent it starts",
    },
    "--endpoint": { flag: "--otlp", placeholder: "URL", why: "--endpoint is export otlp's" },
  },
  otlp: {
    "--otlp": { flag: "--endpoint", placeholder: "URL", why: "--otlp is run's and normalize's" },
  },
};

/** commander's message (agentstream-prefixed) with the hint that helps, if one does, appended. */
export function withUsageHint(said: string, command: RefusingCommand | undefined): string {
  if (!command) return said;
  // The whole option as given, quotes in it included: commander quotes it with ' on a line of its own.
  const unknown = /^agentstream: unknown option '(-.*)'$/m.exec(said);
  if (unknown) {
    const hint = unknownOptionHint(unknown[1]!, command);
    // commander's nearest spelling (`--otlp`: "Did you mean --help?") is no help beside a counterpart.
    return hint.counterpart ? said.replace(/\n\(Did you mean [^\n]*\)/, "") + hint.text : said + hint.text;
  }
  if (command.name() === "run" && /^agentstream: too many arguments for 'run'/.test(said))
    return said + quotePromptHint(command);
  return said;
}

function unknownOptionHint(given: string, command: RefusingCommand): { text: string; counterpart: boolean } {
  const [flag, inlineValue] = splitInline(given);
  const counterpart = COUNTERPARTS[command.name()]?.[flag];
  if (counterpart) {
    const meant = inlineValue ?? valueAfter(command.args, given);
    const value = meant === undefined ? counterpart.placeholder : shellWord(meant);
    const text = `hint: ${commandPath(command)} takes ${counterpart.flag} instead: ${counterpart.flag} ${value} (${counterpart.why})\n`;
    return { text, counterpart: true };
  }
  // Only run takes a prompt: only its unknown options may be a prompt that starts with -.
  if (command.name() !== "run") return { text: "", counterpart: false };
  const text = `hint: to pass ${JSON.stringify(given)} as the prompt, put it after --: agentstream run --backend NAME -- ${shellWord(given)}\n`;
  return { text, counterpart: false };
}

/** "export otlp": the command's name under its parents, the program's own left out. */
function commandPath(command: RefusingCommand): string {
  const names: string[] = [];
  for (let c: RefusingCommand | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** `run --backend evosci Summarize data/results.csv`: the prompt's words arrive as several arguments. */
function quotePromptHint(command: RefusingCommand): string {
  const backend = typeof command.opts().backend === "string" ? shellWord(command.opts().backend as string) : "NAME";
  const prompt = command.args.join(" ");
  const dashed = prompt.startsWith("-");
  const lines = [
    `hint: the prompt is one argument: quote it, as in agentstream run --backend ${backend} ${dashed ? "-- " : ""}${shellWord(prompt)}`,
  ];
  if (!dashed)
    lines.push(`hint: a prompt that starts with - goes after --: agentstream run --backend ${backend} -- "-..."`);
  return `${lines.join("\n")}\n`;
}

function splitInline(given: string): [string, string | undefined] {
  const eq = given.indexOf("=");
  return eq === -1 ? [given, undefined] : [given.slice(0, eq), given.slice(eq + 1)];
}

/** The argument after `flag` when it is no option itself: the value the user meant for it. */
function valueAfter(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  const next = at === -1 ? undefined : args[at + 1];
  return next !== undefined && !next.startsWith("-") ? next : undefined;
}
