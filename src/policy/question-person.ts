// `run --approvals ask` answering a question: each of the form's fields asked in turn at the controlling
// terminal (/dev/tty, as a permission request is: src/policy/approve-person.ts), its choices numbered.
// What is shown is the input.requested event as the stream shows it (secrets hidden, control characters shown,
// never sent), each choice by its title (which the stream does not hold: hidden as the stream hides secrets),
// its value beside it where that says more; the choice a number picks is the form's own value. The content is
// checked against the form before it is sent. `!` declines the question; the end of the terminal's input, no
// answer within the bound, or the run's stop cancels it.
import { openSync, writeSync } from "node:fs";
import { ReadStream } from "node:tty";
import { showControls } from "../core/control-chars.js";
import { clip } from "../core/clip.js";
import { isObject, objectOrEmpty } from "../core/fields.js";
import type { QuestionContent } from "./permission-request.js";
import { MAX_SHOWN_TEXT, type Form, type FormChoice, type FormField } from "./elicitation.js";
import type { ContentCheck, QuestionVerdict } from "./question-answer.js";

const TERMINAL = "/dev/tty";
/** The longest line read as an answer: a longer one is refused, and the field asked again. */
const MAX_TYPED = 64 * 1024;
/** How many times a field is asked again after an answer it cannot take. */
const TRIES = 3;

type Typed = string | null;

/** Ask the person at the terminal; `line` is the input.requested event as the stream shows it. */
export function askPersonQuestion(
  line: string,
  form: Form,
  options: { timeoutMs: number; stop: AbortSignal; check: ContentCheck; redact(text: string): string },
): Promise<QuestionVerdict> {
  return new Promise((resolve) => {
    if (options.stop.aborted) return resolve({ action: "cancel", problem: "the run was stopped" });
    let fd: number;
    try {
      fd = openSync(TERMINAL, "r+");
    } catch (err) {
      return resolve({ action: "cancel", problem: `no terminal (${(err as NodeJS.ErrnoException).code})` });
    }
    const input = new ReadStream(fd);
    const lines: Typed[] = [];
    let waiter: ((typed: Typed) => void) | undefined;
    let partial = "";
    let settled = false;
    const say = (text: string): void => {
      try {
        writeSync(fd, text);
      } catch {
        // The terminal went away: its answer is the end of input.
      }
    };
    const give = (typed: Typed): void => {
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w(typed);
      } else lines.push(typed);
    };
    const next = (): Promise<Typed> =>
      lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise((r) => (waiter = r));
    const done = (verdict: QuestionVerdict, note?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.stop.removeEventListener("abort", onStop);
      if (note !== undefined) say(`\n${note}\n`);
      input.destroy();
      // A conversation still waiting for a line ends with it.
      give(null);
      resolve(verdict);
    };
    const onStop = (): void => done({ action: "cancel", problem: "the run was stopped" }, "(the run was stopped)");
    const seconds = options.timeoutMs / 1000;
    const timer = setTimeout(
      () =>
        done(
          { action: "cancel", problem: `no answer within ${seconds} s` },
          `(no answer within ${seconds} s: the question is cancelled)`,
        ),
      options.timeoutMs,
    );
    options.stop.addEventListener("abort", onStop, { once: true });
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      partial += chunk;
      for (let end = partial.indexOf("\n"); end >= 0; end = partial.indexOf("\n")) {
        give(partial.slice(0, end).replace(/\r$/, ""));
        partial = partial.slice(end + 1);
      }
      // An overlong line is kept as a marker of its length only.
      if (partial.length > MAX_TYPED) partial = partial.slice(0, MAX_TYPED + 1);
    });
    input.on("end", () => done({ action: "cancel", problem: "the terminal's input ended" }, "(cancelled)"));
    input.on("error", () => done({ action: "cancel", problem: "the terminal could not be read" }));
    void converse(line, form, { say, next, seconds, redact: options.redact }).then(
      async (answered) => {
        if (settled) return;
        if (answered === "declined") return done({ action: "decline" }, "(declined)");
        if (answered === undefined)
          return done({ action: "cancel", problem: "no answer a field could take" }, "(cancelled)");
        const problem = await options.check(answered, options.stop);
        if (problem === undefined) return done({ action: "accept", content: answered });
        done(
          { action: "cancel", problem: `the answers do not fit the form (${problem})` },
          `(the answers do not fit the form: ${showControls(clip(problem, 400))}; cancelled)`,
        );
      },
      () => done({ action: "cancel", problem: "the terminal could not be read" }),
    );
  });
}

interface Talk {
  say(text: string): void;
  next(): Promise<Typed>;
  seconds: number;
  /** The agent's text as the stream shows it (secrets hidden). */
  redact(text: string): string;
}

/** The fields asked one by one: the content, "declined" (`!`), or undefined (input ended, or tries ran out). */
async function converse(line: string, form: Form, talk: Talk): Promise<QuestionContent | "declined" | undefined> {
  const shown = shownEvent(line);
  const message = typeof shown.message === "string" ? shown.message : "";
  const questions = Array.isArray(shown.questions) ? shown.questions.filter(isObject) : [];
  talk.say(
    `agentstream: the agent asks${message !== "" ? `: ${showControls(message)}` : ""}\n(one answer a line; Enter skips a field that is not required; ! declines the question; ${talk.seconds} s in all)\n`,
  );
  const content: QuestionContent = {};
  for (const [index, field] of form.fields.entries()) {
    const asShown = questions[index] ?? {};
    const question = typeof asShown.question === "string" ? asShown.question : field.id;
    talk.say(`[${index + 1}/${form.fields.length}] ${showControls(question)}${hintOf(field)}\n`);
    for (const [n, choice] of (field.choices ?? []).entries())
      talk.say(`  ${n + 1}) ${choiceShown(choice, talk.redact)}\n`);
    let taken = false;
    for (let tries = 0; tries < TRIES && !taken; tries++) {
      talk.say("> ");
      const typed = await talk.next();
      if (typed === null) return undefined;
      if (typed.trim() === "!") return "declined";
      if (typed.length > MAX_TYPED) {
        talk.say(`(longer than ${MAX_TYPED} characters: not taken)\n`);
        continue;
      }
      if (typed.trim() === "") {
        if (!field.required) {
          taken = true;
          break;
        }
        talk.say("(an answer is required)\n");
        continue;
      }
      const read = typedValue(field, typed);
      if ("problem" in read) {
        talk.say(`(${read.problem})\n`);
        continue;
      }
      content[field.id] = read.value;
      taken = true;
    }
    if (!taken) return undefined;
  }
  return content;
}

/**
 * A choice as the person sees it: its title, and its value where the title does not say it (not the same words
 * but for case): what the answer sends, and what the stream shows. Both are the agent's text: hidden and escaped.
 */
function choiceShown({ title, value }: FormChoice, redact: (text: string) => string): string {
  const shown = (text: string): string => showControls(clip(redact(text), MAX_SHOWN_TEXT));
  const same = title.trim().toLowerCase() === value.trim().toLowerCase();
  return same ? shown(title) : `${shown(title)} (${shown(value)})`;
}

/** What a field takes, said after its question. */
function hintOf(field: FormField): string {
  const need = field.required ? "" : ", or Enter to skip";
  switch (field.type) {
    case "choice":
      return ` (a number${need})`;
    case "choices":
      return ` (numbers, separated by commas or blanks${need})`;
    case "boolean":
      return ` (y or n${need})`;
    case "number":
      return ` (a number${need})`;
    case "integer":
      return ` (a whole number${need})`;
    case "text":
      return field.required ? "" : " (Enter to skip)";
  }
}

/** The typed line as the field's value, or why it is none. */
function typedValue(
  field: FormField,
  typed: string,
): { value: string | number | boolean | string[] } | { problem: string } {
  const text = typed.trim();
  const choices = field.choices ?? [];
  const pick = (word: string): string | undefined => {
    const n = /^\d+$/.test(word) ? Number(word) : 0;
    return n >= 1 && n <= choices.length ? choices[n - 1]!.value : undefined;
  };
  switch (field.type) {
    case "text":
      return { value: typed };
    case "boolean":
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: "answer y or n" };
    case "number":
    case "integer": {
      const n = text === "" ? Number.NaN : Number(text);
      if (!Number.isFinite(n)) return { problem: "not a number" };
      if (field.type === "integer" && !Number.isInteger(n)) return { problem: "not a whole number" };
      return { value: n };
    }
    case "choice": {
      const value = pick(text);
      return value === undefined ? { problem: `answer a number from 1 to ${choices.length}` } : { value };
    }
    case "choices": {
      const words = text.split(/[\s,]+/).filter((w) => w !== "");
      const values = words.map(pick);
      if (values.some((v) => v === undefined)) return { problem: `answer numbers from 1 to ${choices.length}` };
      return { value: [...new Set(values as string[])] };
    }
  }
}

function shownEvent(line: string): Record<string, unknown> {
  try {
    return objectOrEmpty(JSON.parse(line));
  } catch {
    // Never: the line is the stream's own serialization.
    return {};
  }
}
