// How a backend's lack of a portable option is said, and the one place a request's lacks are refused: a
// backend's `supports` says, per option, how it reaches it or why it lacks it; the option's row
// (src/backends/portable-rows.ts) words the refusal where the default ("--opt: X <why>") would not do, and
// whether only a backend asked live has it.
import { OptionError, wordedWith, type OptionNaming, type Words, type Worded } from "../core/errors.js";
import type { PortableRow, RefusalWords } from "../core/option-row.js";
import type { AcpFacet, ArgvFacet, DriverFacet } from "./definition.js";
import { PORTABLE_ROWS } from "./portable-rows.js";
import { BACKENDS } from "./registry.js";
import {
  isAsked,
  type ChoiceOption,
  type PortableOption,
  type PortableRequest,
  type PortableValues,
} from "./request.js";
import { reaches, supportOf, type Lacks, type Support } from "./support.js";

/** What a refusal reads of a backend: what it takes of the options, whether it is driven, and over what. */
export type Refusable = ArgvFacet & DriverFacet & AcpFacet;

/** What a refusal may read: the registry (who else has it) and the request (what else was asked). */
interface RefusalContext {
  all: readonly Refusable[];
  asked: Asking;
}

/** A request as refusals read it: which options are asked (their values unread but the choices'). */
export type Asking = {
  readonly [K in keyof PortableRequest]?: K extends ChoiceOption ? PortableValues[K] : unknown;
};

/** The refusal of a backend that lacks an option: its message and hint. */
type Refusal = (backend: Refusable, lack: Lacks, context: RefusalContext) => [Worded, Worded?];

/** The backend's own definition, where this one drives it over ACP (--transport acp). */
function nativeOf(backend: Refusable, all: readonly Refusable[]): Refusable | undefined {
  if (backend.transport !== "acp") return undefined;
  return all.find((b) => b.name === backend.name && b.transport === undefined);
}

/** The backend as a refusal names it: "Gemini CLI over ACP (--transport acp)" where --transport acp drives it. */
function subjectOf(backend: Refusable, all: readonly Refusable[], name: OptionNaming): string {
  return nativeOf(backend, all) ? `${backend.displayName} over ACP (${name("transport")} acp)` : backend.displayName;
}

/**
 * A flag only some backends have: "has no model flag (Codex has it)", and why as the hint. A backend driven over
 * ACP is never among those said to have it; that its own stream has it is said apart.
 */
function flagRefusal(option: PortableOption, noun: Words): Refusal {
  return (backend, lack, { all }) => {
    const native = nativeOf(backend, all);
    const has = (b: Refusable): boolean => {
      const support = supportOf(b.supports, option);
      return support !== undefined && reaches(support);
    };
    const takers = all.filter((b) => b.name !== backend.name && has(b)).map((b) => b.displayName);
    return [
      (name) => {
        const said = [
          ...(takers.length > 0 ? [`${takers.join(" and ")} ${takers.length > 1 ? "have" : "has"} it`] : []),
          ...(native && has(native) ? [`${native.displayName} has it without ${name("transport")} acp`] : []),
        ];
        const others = said.length > 0 ? ` (${said.join("; ")})` : "";
        return `${name(option)}: ${subjectOf(backend, all, name)} has no ${wordedWith(noun, name)}${others}`;
      },
      (name) => wordedWith(lack.lacks, name),
    ];
  };
}

/** An option whose refusal says why: "--resume: X keeps no sessions". */
function reasonRefusal(said: (name: OptionNaming, asked: Asking) => string): Refusal {
  return (backend, lack, { all, asked }) => [
    (name) => `${said(name, asked)}: ${subjectOf(backend, all, name)} ${wordedWith(lack.lacks, name)}`,
  ];
}

/** A limit: every limit asked that the backend lacks for the same reason named at once; --max-turns as the hint. */
const limitRefusal =
  (rows: readonly PortableRow[]): Refusal =>
  (backend, lack, { all, asked }) => {
    const limits = rows.filter((row) => row.portable.refusal !== undefined && "limit" in row.portable.refusal);
    const named = limits.flatMap(({ key }) => {
      const support = supportOf(backend.supports, key as PortableOption);
      return asked[key as PortableOption] !== undefined &&
        support !== undefined &&
        !reaches(support) &&
        support.lacks === lack.lacks
        ? [key]
        : [];
    });
    return [
      (name) =>
        `${named.map((key) => name(key)).join(" and ")}: ${subjectOf(backend, all, name)} ${wordedWith(lack.lacks, name)}`,
      reaches(backend.supports.maxTurns)
        ? (name) => `${name("maxTurns")} stops it (each turn is seen as it begins)`
        : undefined,
    ];
  };

/** The refusal of a backend that lacks this row's option, in the words its row gives (else its name, a choice's value after it). */
function refusalOf(row: PortableRow, rows: readonly PortableRow[]): Refusal {
  const option = row.key as PortableOption;
  const words: RefusalWords | undefined = row.portable.refusal;
  if (words === undefined)
    return reasonRefusal((name, asked) =>
      row.portable.choices === undefined ? name(option) : `${name(option)} ${String(asked[option])}`,
    );
  if ("flag" in words) return flagRefusal(option, words.flag);
  if ("limit" in words) return limitRefusal(rows);
  return reasonRefusal(() => words.named);
}

/** Only a driven backend (ACP) answers a permission request live. */
const NOT_LIVE: Lacks = { lacks: "is not asked live: its permissions are fixed before it starts" };

/** What asks a backend live: the library's callback, --approve-with, --approvals ask (the rows' `live`, `liveChoices`). */
function asksLive(row: PortableRow, asked: Asking): boolean {
  const value = asked[row.key as PortableOption];
  return row.portable.live !== undefined || row.portable.liveChoices?.includes(value as string) === true;
}

/**
 * A backend not asked live, refused an answerer: the hint names the transport that asks it live where it has
 * one (`--transport acp`), else the agents that are.
 */
function liveRefusal(row: PortableRow): Refusal {
  const option = row.key as PortableOption;
  return (backend, lack, { all, asked }) => [
    (name) =>
      `${row.portable.choices !== undefined ? `${name(option)} ${String(asked[option])}` : name(option)}: ${subjectOf(backend, all, name)} ${wordedWith(lack.lacks, name)}`,
    (name) => {
      if (backend.acpMode !== undefined && backend.transport === undefined)
        return `${name("transport")} acp drives ${backend.displayName} over ACP, where each permission request is answered live`;
      const over = all.filter((b) => b.acpMode !== undefined && b.transport === undefined).map((b) => b.displayName);
      const driven = all.filter((b) => b.driver !== undefined).map((b) => b.name);
      return `only an agent driven over ACP is asked live: ${name("backend")} ${driven.join(" or ")}${over.length > 0 ? `, or ${over.join(", ")} with ${name("transport")} acp` : ""}`;
    },
  ];
}

/** A backend whose `supports` map has no entry for an option asked: refused, never passed over. */
const NO_ENTRY: Lacks = { lacks: "does not take it (its supports map has no entry for it)" };

/** What the backend says of this option, as asked: how it reaches it, or why it lacks it. */
function supportFor(backend: Refusable, row: PortableRow, asked: Asking): Support<PortableOption> | undefined {
  const option = row.key as PortableOption;
  // Taken whole by a driver: only a driven backend has it.
  if (row.portable.live === "driver") return backend.driver ? undefined : NOT_LIVE;
  // A live option or choice with no entry: the backend is not asked live.
  const support = supportOf(backend.supports, option, asked[option] as never);
  if (support === undefined && asksLive(row, asked)) return NOT_LIVE;
  if (!Object.hasOwn(backend.supports, option)) return NO_ENTRY;
  return support;
}

/**
 * Refuse the first option of the request that is asked and the backend lacks (in the order of the portable
 * rows), before anything starts: the one check of a whole request against a backend.
 */
export function refuseLacking(backend: Refusable, asked: Asking, rows: readonly PortableRow[] = PORTABLE_ROWS): void {
  for (const row of rows) {
    if (!isAsked(asked[row.key as PortableOption])) continue;
    const support = supportFor(backend, row, asked);
    if (support === undefined || reaches(support)) continue;
    const refusal = asksLive(row, asked) ? liveRefusal(row) : refusalOf(row, rows);
    const [message, hint] = refusal(backend, support, { all: BACKENDS, asked });
    throw new OptionError(message, hint);
  }
}
