// The Compatibility table of docs/backends.md, made from the record of the last full
// `npm run test:live -- --latest` (test/live/compatibility.json).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BACKENDS } from "../../../src/backends/registry.js";
import type { BackendDefinition } from "../../../src/backends/definition.js";
import { reaches } from "../../../src/backends/support.js";
import { LIVE_TARGETS } from "./live-targets.mjs";

export const RECORD_PATH = fileURLToPath(new URL("../../live/compatibility.json", import.meta.url));
const PAGE_PATH = fileURLToPath(new URL("../../../docs/backends.md", import.meta.url));
export const START = "<!-- compatibility: generated from test/live/compatibility.json; do not edit by hand -->";
export const END = "<!-- compatibility: end -->";

export interface RecordedTarget {
  id: string;
  backend: string;
  package: string;
  version: string;
  runtime: string;
  latestOf?: string;
  passed: number;
  failed: number;
  unknownTypes: string[];
  /** On a newest release: the unread fields its pin did not write. */
  newFields?: Record<string, string[]>;
}

export interface CompatibilityRecord {
  date: string;
  latest: boolean;
  targets: RecordedTarget[];
}

export function readRecord(path = RECORD_PATH): CompatibilityRecord {
  return JSON.parse(readFileSync(path, "utf8")) as CompatibilityRecord;
}

const scenarios = (t: RecordedTarget) => `${t.passed}/${t.passed + t.failed}`;

interface Pin {
  id: string;
  backend: string;
  package: string;
  version: string;
}

/**
 * One row per backend, in the registry's order: its pins (CI runs these), what
 * the last full `--latest` run saw of each, and the newest release it tried.
 */
export function renderTable(record: CompatibilityRecord, pins: readonly Pin[] = LIVE_TARGETS): string {
  const seen = (id: string) => record.targets.find((t) => t.id === id && !t.latestOf);
  const rows = BACKENDS.map((backend) => {
    const mine = pins.filter((t) => t.backend === backend.name);
    if (mine.length === 0)
      return `| ${backend.displayName} | recorded captures only (no live suite) | | | | ${rulesCell(backend)} |`;
    const released = mine.map((t) => `\`${t.package}\` ${t.version}`).join("; ");
    const runtimes = [...new Set(mine.map((t) => seen(t.id)?.runtime ?? "?"))].join("; ");
    const passed = mine.map((t) => (seen(t.id) ? scenarios(seen(t.id)!) : "not in the last full run")).join(", ");
    const newest = record.targets.find((t) => t.latestOf !== undefined && mine.some((p) => p.id === t.latestOf));
    const tried = newest
      ? `${newest.version}: ${scenarios(newest)}${newest.unknownTypes.length > 0 ? `, unknown types ${newest.unknownTypes.join(", ")}` : ""}${newFieldList(newest)}`
      : mine.every((t) => seen(t.id))
        ? "the pin is the newest"
        : "";
    return `| ${backend.displayName} | ${released} | ${runtimes} | ${passed} | ${tried} | ${rulesCell(backend)} |`;
  });
  return [
    `Last full live run with the newest releases: ${record.date} (\`npm run test:live -- --latest\`).`,
    "",
    "| backend | pinned release (CI runs these) | runtime | scenarios passed | newest release tried: scenarios passed | `--allow-tool`/`--deny-tool` rules |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/**
 * How the backend's rules are kept (docs/permissions.md "Per backend and transport"), from its definition: enforced
 * before start by its own flags (natively), answered live over ACP, or refused.
 */
function rulesCell(backend: BackendDefinition): string {
  if (backend.protocol === "acp") return "answered live (ACP)";
  const { allowTools, denyTools } = backend.supports;
  const native =
    reaches(allowTools) && reaches(denyTools)
      ? "before start"
      : reaches(denyTools)
        ? "`--deny-tool` only, before start"
        : "refused";
  if (backend.acpMode === undefined) return native;
  const through = backend.acpMode.adapter ? ` (${backend.acpMode.adapter.executableNames[0]})` : "";
  return `${native}; answered live with \`--transport acp\`${through}`;
}

function newFieldList(t: RecordedTarget): string {
  const fields = Object.entries(t.newFields ?? {}).flatMap(([type, names]) => names.map((n) => `\`${type}.${n}\``));
  return fields.length > 0 ? `, new fields ${fields.join(", ")} (not read)` : "";
}

/** The page with its Compatibility block made anew from `record`. */
export function withTable(readme: string, record: CompatibilityRecord): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error("docs/backends.md has no compatibility block markers");
  return `${readme.slice(0, start + START.length)}\n${renderTable(record)}\n${readme.slice(end)}`;
}

export function writeReadmeTable(record: CompatibilityRecord): void {
  writeFileSync(PAGE_PATH, withTable(readFileSync(PAGE_PATH, "utf8"), record));
}
