// After a live run: which scenarios each target passed, what its streams showed
// that its translator was not written for, and how each scenario ended; printed,
// and, after a full run (no AGENTSTREAM_LIVE_ONLY), kept as the committed record
// test/live/compatibility.json that the Compatibility table of docs/backends.md is made from.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { RECORD_PATH, writeReadmeTable } from "../../helpers/live/compat-table.js";
import type { Drift } from "../../helpers/live/drift.js";
import type { LiveTarget } from "./live-run.js";
import { RESULTS_DIR } from "./results-dir.js";

interface ScenarioResult extends Drift {
  scenario: string;
  ending: { status: string; exit_code: number; error_code: string | null };
}

export default class CompatibilityReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const targetsFile = join(RESULTS_DIR, "targets.json");
    if (!existsSync(targetsFile)) return;
    const { latest, targets } = JSON.parse(readFileSync(targetsFile, "utf8")) as {
      latest: boolean;
      targets: Array<LiveTarget & { latestOf?: string }>;
    };
    const tests = modules.flatMap((m) => [...m.children.allTests()]);
    const record = {
      date: new Date().toISOString().slice(0, 10),
      latest,
      targets: targets.map((t) => {
        const mine = tests.filter((test) => test.fullName.startsWith(`${t.id} live`));
        const states = mine.map((test) => test.result().state);
        const scenarios = readScenarios(t.id);
        return {
          id: t.id,
          backend: t.backend,
          package: t.package,
          version: t.version,
          runtime: t.runtime,
          ...(t.latestOf ? { latestOf: t.latestOf } : {}),
          passed: states.filter((s) => s === "passed").length,
          failed: states.filter((s) => s === "failed").length,
          unknownTypes: [...new Set(scenarios.flatMap((s) => s.unknownTypes))].sort(),
          unreadFields: mergeFields(scenarios),
          endings: Object.fromEntries(scenarios.map((s) => [s.scenario, s.ending])),
        };
      }),
    };
    for (const t of record.targets) {
      const pin = t.latestOf ? record.targets.find((p) => p.id === t.latestOf) : undefined;
      if (pin) Object.assign(t, { newFields: newFields(pin.unreadFields, t.unreadFields) });
    }
    for (const t of record.targets as Array<
      (typeof record.targets)[number] & { newFields?: Record<string, string[]> }
    >) {
      const pin = t.latestOf ? record.targets.find((p) => p.id === t.latestOf) : undefined;
      const changed = pin ? changedEndings(pin.endings, t.endings) : [];
      process.stderr.write(
        `live report: ${t.id} (${t.package}${t.latestOf ? `, newest, beside ${t.latestOf}` : ""}): ` +
          `${t.passed} passed, ${t.failed} failed; unknown native types: ${t.unknownTypes.join(", ") || "none"}; ` +
          `unread fields: ${fieldText(t.unreadFields) || (latest ? "none" : "not counted (no --latest)")}` +
          `${pin ? `; fields new since the pin: ${fieldText(t.newFields ?? {}) || "none"}; endings changed from the pin: ${changed.join(", ") || "none"}` : ""}\n`,
      );
    }
    // The record names the newest releases: only a full run that tried them makes one.
    if (!latest || process.env.AGENTSTREAM_LIVE_ONLY) return;
    writeFileSync(RECORD_PATH, `${JSON.stringify(record, null, 2)}\n`);
    writeReadmeTable(record);
    process.stderr.write(`live report: recorded in ${RECORD_PATH}, docs/backends.md's Compatibility table rewritten\n`);
  }
}

function readScenarios(id: string): ScenarioResult[] {
  const dir = join(RESULTS_DIR, "scenarios", id);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as ScenarioResult);
}

function mergeFields(scenarios: ScenarioResult[]): Record<string, string[]> {
  const merged = new Map<string, Set<string>>();
  for (const s of scenarios)
    for (const [type, fields] of Object.entries(s.unreadFields))
      for (const f of fields) merged.set(type, (merged.get(type) ?? new Set()).add(f));
  return Object.fromEntries([...merged].sort().map(([type, fields]) => [type, [...fields].sort()]));
}

function changedEndings(pin: Record<string, unknown>, newest: Record<string, unknown>): string[] {
  return Object.keys(newest).filter((s) => s in pin && JSON.stringify(pin[s]) !== JSON.stringify(newest[s]));
}

function fieldText(fields: Record<string, string[]>): string {
  return Object.entries(fields)
    .map(([type, names]) => `${type}{${names.join(",")}}`)
    .join(" ");
}

function newFields(pin: Record<string, string[]>, newest: Record<string, string[]>): Record<string, string[]> {
  const fresh = Object.entries(newest)
    .map(([type, names]) => [type, names.filter((n) => !(pin[type] ?? []).includes(n))] as const)
    .filter(([, names]) => names.length > 0);
  return Object.fromEntries(fresh);
}
