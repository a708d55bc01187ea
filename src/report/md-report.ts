import type { ReportBuilder } from "./builder.js";
import {
  cost,
  count,
  duration,
  percent,
  runDuration,
  STATUS_WORDS,
  tokens,
  TOOL_STATUS_WORDS,
  totalDuration,
  usageIncomplete,
} from "./figure-text.js";
import { details, fenced, inline, table } from "./markdown.js";
import { ReportReducer } from "./report-reducer.js";
import type { Report, RunSummary, SkippedNote, ToolCallNote } from "./report-v1.js";
import { clip } from "../core/clip.js";

// An answer longer than this is collapsed in a <details> section.
const SHORT_ANSWER_LINES = 15;
const SHORT_ANSWER_CHARS = 1500;

/**
 * The report as GitHub-flavoured Markdown, for $GITHUB_STEP_SUMMARY, a GitLab
 * job page or a pull request: one run in detail, or several as one table with
 * totals.
 */
export function createMarkdownReport(): ReportBuilder {
  const reducer = new ReportReducer();
  return {
    file: (name) => reducer.file(name),
    add: (event) => reducer.add(event),
    finish: () => renderMarkdown(reducer.finish()),
  };
}

export function renderMarkdown(report: Report): string {
  const lines = report.runs.length === 1 ? runSection(report.runs[0]!) : runsSection(report);
  return `${lines.join("\n")}\n`;
}

function runSection(run: RunSummary): string[] {
  const s = STATUS_WORDS[run.status];
  const out = [`## ${s.icon} agentstream: ${run.backend === "" ? "" : `${inline(run.backend)} `}${s.word}`, ""];
  const facts: [string, string][] = [
    [
      "status",
      run.finished
        ? `${s.word} (exit ${run.exit_code})`
        : run.skipped?.run_finished
          ? "incomplete: its run.finished breaks the schema and was skipped, so the outcome is unknown"
          : "incomplete: the stream ended before run.finished, so the outcome is unknown",
    ],
  ];
  if (run.error)
    facts.push([
      "error",
      `${inline(run.error.code)}${run.error.retryable ? " (retryable)" : ""}: ${inline(firstLine(run.error.message))}`,
    ]);
  facts.push(["duration", runDuration(run)]);
  facts.push(["tool calls", toolFigure(run.counts.tool_calls, run.counts.tool_failures)]);
  if (run.subagents.count > 0) facts.push(["sub-agents", count(run.subagents.count)]);
  facts.push([
    "tokens",
    `${tokens(run.usage)}${usageIncomplete(run) && run.usage ? " (incomplete: the backend under-reports)" : ""}`,
  ]);
  if (run.usage?.cache_read_input_tokens) facts.push(["cache reads", count(run.usage.cache_read_input_tokens)]);
  if (run.usage?.reasoning_tokens) facts.push(["reasoning tokens", count(run.usage.reasoning_tokens)]);
  const source = run.usage?.cost_usd === undefined ? undefined : run.usage.cost_source;
  // An estimate says so, and from what: the backend reported no cost for (some of) it.
  const estimate = source === "estimated" || source === "mixed" ? ` (${source}: ${run.usage?.price_data})` : "";
  facts.push(["cost", `${cost(run.usage?.cost_usd)}${estimate}`]);
  if (run.counts.retries > 0) facts.push(["retries", count(run.counts.retries)]);
  if (run.compactions.length > 0) facts.push(["compactions", count(run.compactions.length)]);
  if (run.models.length > 0) facts.push(["model", run.models.map(inline).join(", ")]);
  if (run.session_id) facts.push(["session", inline(run.session_id)]);
  if (run.skipped) facts.push(["skipped", skippedFigure(run.skipped)]);
  out.push(
    ...table(
      ["", ""],
      facts.map(([k, v]) => [`**${k}**`, v]),
    ),
    "",
  );

  // Sections that quote a stream's text are appended line by line: a long text makes many lines.
  if (run.status === "needs_input" || (run.resume && run.status !== "succeeded")) append(out, needsInput(run));
  if (run.error && (run.error.message.includes("\n") || run.error.message.length > 200))
    append(out, [...details("Error message", fenced(run.error.message)), ""]);
  if (run.result_text !== null) append(out, answer(run));
  if (run.tools.calls > 0) out.push(...toolSection(run));
  if (run.subagents.count > 0) out.push(...subagentSection(run));
  if (run.retries.length > 0) {
    const rows = run.retries.map((r) => [
      `${r.attempt}${r.max_attempts !== undefined ? `/${r.max_attempts}` : ""}`,
      inline(r.scope),
      duration(r.delay_ms),
      inline(r.error),
    ]);
    out.push(
      `### Retries (${count(run.counts.retries)})`,
      "",
      ...table(["attempt", "scope", "delay", "error"], rows),
      "",
    );
  }
  if (run.compactions.length > 0) {
    const rows = run.compactions.map((c) => [
      inline(c.reason ?? "–"),
      c.tokens_before === undefined ? "–" : count(c.tokens_before),
      c.tokens_after === undefined ? "–" : count(c.tokens_after),
      c.aborted ? "aborted" : c.error ? inline(c.error) : "done",
    ]);
    out.push(
      `### Compactions (${count(run.compactions.length)})`,
      "",
      ...table(["reason", "tokens before", "tokens after", "outcome"], rows, ["l", "r", "r", "l"]),
      "",
    );
  }
  if (run.status !== "succeeded" && run.stderr_tail.length > 0)
    append(out, [...details("Last lines of the backend's stderr", fenced(run.stderr_tail.join("\n"))), ""]);
  if (run.skipped) out.push(...details("Events the report skipped", skippedList(run.skipped)), "");
  return trimEnd(out);
}

function needsInput(run: RunSummary): string[] {
  const out: string[] = [];
  if (run.pending.length > 0) {
    out.push("### Waiting for input", "");
    for (const p of run.pending)
      out.push(`- ${p.kind}${p.asks.length > 0 ? `: ${p.asks.map(inline).join("; ")}` : ""}`);
    out.push("");
  }
  if (run.resume) out.push("Resume the session with:", "", ...fenced(run.resume.hint), "");
  return out;
}

function answer(run: RunSummary): string[] {
  const text = run.result_text!;
  const lineCount = text.split("\n").length;
  const body = fenced(text);
  if (run.result_truncated) body.push("", `*The answer is cut at ${count(text.length)} characters.*`);
  if (lineCount <= SHORT_ANSWER_LINES && text.length <= SHORT_ANSWER_CHARS)
    return ["### Final answer", "", ...body, ""];
  return [
    "### Final answer",
    "",
    ...details(`Final answer (${count(lineCount)} lines, ${count(text.length)} characters)`, body),
    "",
  ];
}

function toolSection(run: RunSummary): string[] {
  const t = run.tools;
  const failed = run.counts.tool_failures > 0 ? `, ${count(run.counts.tool_failures)} failed` : "";
  const out = [`### Tool calls (${count(run.counts.tool_calls)}${failed})`, ""];
  const failedFirst = (notes: ToolCallNote[]): ToolCallNote[] => [
    ...notes.filter((n) => n.status !== "succeeded"),
    ...notes.filter((n) => n.status === "succeeded"),
  ];
  let calls: ToolCallNote[];
  let caption = "";
  if (t.all.length > 0 || t.completed === 0) calls = failedFirst(t.all);
  else {
    const failures = new Set(t.failures);
    calls = [...t.failures, ...t.slowest.filter((n) => !failures.has(n) && n.status === "succeeded")];
    caption = `The first ${count(t.failures.length)} failed calls, then the ${count(calls.length - t.failures.length)} slowest of ${count(t.completed)}.`;
  }
  const withAgent = calls.some((n) => n.agent);
  const rows = calls.map((n) => [
    inline(n.name),
    TOOL_STATUS_WORDS[n.status],
    duration(n.duration_ms),
    ...(withAgent ? [n.agent ? inline(n.agent.name) : "main"] : []),
    n.output ? inline(n.output) : "",
  ]);
  out.push(...table(["tool", "status", "duration", ...(withAgent ? ["agent"] : []), "output"], rows));
  if (caption) out.push("", caption);
  if (t.open > 0)
    out.push("", `${count(t.open)} call${t.open === 1 ? " was" : "s were"} still open when the stream ended.`);
  out.push("");
  if (t.by_name.length > 1 || t.all.length === 0) {
    const rows = t.by_name.map((s) => [
      inline(s.name),
      count(s.calls),
      count(s.failed),
      count(s.cancelled),
      duration(s.total_ms),
      duration(s.max_ms),
    ]);
    out.push(
      ...details(
        `By tool (${count(t.by_name.length)} tools)`,
        table(["tool", "calls", "failed", "cancelled", "total time", "slowest"], rows, ["l", "r", "r", "r", "r", "r"]),
      ),
      "",
    );
  }
  return out;
}

function subagentSection(run: RunSummary): string[] {
  const rows = run.subagents.list.map((s) => [
    inline(s.name),
    s.description ? inline(s.description) : "",
    s.paused ? "paused for input" : s.completed ? "completed" : "not completed",
    duration(s.duration_ms),
  ]);
  const more = run.subagents.count - run.subagents.list.length;
  return [
    `### Sub-agents (${count(run.subagents.count)})`,
    "",
    ...table(["sub-agent", "task", "status", "duration"], rows),
    ...(more > 0 ? ["", `… and ${count(more)} more.`] : []),
    "",
  ];
}

function runsSection(report: Report): string[] {
  const t = report.totals;
  const out = [`## agentstream: ${count(t.runs)} runs, ${percent(t.success_rate)} succeeded`, ""];
  const statuses = Object.entries(t.by_status)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${count(n)} ${STATUS_WORDS[s as keyof typeof STATUS_WORDS].word}`);
  const facts: [string, string][] = [
    ["runs", `${count(t.runs)}${statuses.length > 0 ? `: ${statuses.join(", ")}` : ""}`],
    ["success rate", percent(t.success_rate)],
    ["duration", totalDuration(report.runs, t.duration_ms)],
    ["tool calls", toolFigure(t.tool_calls, t.tool_failures)],
    [
      "tokens",
      `${tokens({ input_tokens: t.input_tokens, output_tokens: t.output_tokens })}${t.usage_complete ? "" : " (incomplete)"}`,
    ],
    ["cost", `${cost(t.cost_usd)}${t.cost_complete || t.cost_usd === null ? "" : " (incomplete)"}`],
  ];
  out.push(
    ...table(
      ["", ""],
      facts.map(([k, v]) => [`**${k}**`, v]),
    ),
    "",
  );
  if (report.runs.length > 0) {
    const rows = report.runs.map((r) => [
      inline(r.file),
      inline(r.backend),
      `${STATUS_WORDS[r.status].icon} ${STATUS_WORDS[r.status].word}${r.exit_code !== null && r.exit_code !== 0 ? ` (exit ${r.exit_code})` : ""}`,
      r.timing === "none" ? "unknown" : duration(r.duration_ms),
      count(r.counts.tool_calls),
      count(r.counts.tool_failures),
      `${tokens(r.usage)}${r.usage && usageIncomplete(r) ? " (incomplete)" : ""}`,
      cost(r.usage?.cost_usd),
    ]);
    out.push(
      "### Runs",
      "",
      ...table(["run", "backend", "status", "duration", "tools", "failures", "tokens", "cost"], rows, [
        "l",
        "l",
        "l",
        "r",
        "r",
        "r",
        "l",
        "r",
      ]),
      "",
    );
  }
  if (t.slowest_tools.length > 0) {
    const rows = t.slowest_tools.map((s) => [
      inline(s.name),
      count(s.calls),
      count(s.failed),
      duration(s.total_ms),
      duration(s.mean_ms),
      duration(s.max_ms),
    ]);
    out.push(
      "### Slowest tools",
      "",
      ...table(["tool", "calls", "failed", "total time", "mean", "slowest"], rows, ["l", "r", "r", "r", "r", "r"]),
      "",
    );
  }
  const unsuccessful = report.runs.filter((r) => r.status !== "succeeded");
  if (unsuccessful.length > 0) {
    out.push("### Runs that did not succeed", "");
    for (const r of unsuccessful) {
      const why = r.error
        ? `${inline(r.error.code)}: ${inline(firstLine(r.error.message))}`
        : r.finished
          ? ""
          : "the stream ended before run.finished";
      out.push(`- ${inline(r.file)}: ${STATUS_WORDS[r.status].word}${why ? `, ${why}` : ""}`);
    }
    out.push("");
  }
  const skipped = report.runs.filter((r) => r.skipped);
  if (skipped.length > 0) {
    out.push("### Events the report skipped", "");
    for (const r of skipped) out.push(`- ${inline(r.file)}: ${skippedFigure(r.skipped!)}`);
    out.push("");
  }
  return trimEnd(out);
}

/** "2 events skipped, 1 field left out (they break the canonical schema)". */
function skippedFigure(s: SkippedNote): string {
  const parts = [
    ...(s.events > 0 ? [`${count(s.events)} event${s.events === 1 ? "" : "s"} skipped`] : []),
    ...(s.fields > 0 ? [`${count(s.fields)} field${s.fields === 1 ? "" : "s"} left out`] : []),
  ];
  return `${parts.join(", ")} (they break the canonical schema)`;
}

function skippedList(s: SkippedNote): string[] {
  const more = s.events + s.fields - s.notes.length;
  return [...s.notes.map((n) => `- ${inline(n)}`), ...(more > 0 ? ["", `… and ${count(more)} more.`] : [])];
}

/** Appends `lines` one by one (a spread of many would overflow the call stack). */
function append(out: string[], lines: readonly string[]): void {
  for (const line of lines) out.push(line);
}

function toolFigure(calls: number, failures: number): string {
  return `${count(calls)}${failures > 0 ? ` (${count(failures)} failed)` : ""}`;
}

function firstLine(text: string): string {
  return clip(text.trim().split("\n", 1)[0] ?? "", 200);
}

function trimEnd(lines: string[]): string[] {
  while (lines.at(-1) === "") lines.pop();
  return lines;
}
