// The report's content as static HTML, built in Node: the title, the run
// picker, each run's header, figures, final answer, errors and timeline, and
// the summary rows of runs beyond the limit. The page's script only adds
// interaction to it.
import { escapeHtml as esc } from "../escape-html.js";
import { TIMES_UNKNOWN } from "../figure-text.js";
import { clipText, fmtAt, fmtMs, fmtN } from "./format.js";
import type { ReportData, RunData } from "./model.js";
import { renderTimeline } from "./timeline.js";

/** Errors listed in view; the rest one click away. */
const SHOWN_ERRORS = 10;

export function renderContent(data: ReportData): string {
  const out = [`<h1>${esc(data.title)}</h1>`];
  const many = data.runs.length > 1;
  if (!data.runs.length) out.push(`<p class="none">No runs in the input.</p>`);
  if (many) {
    const links = data.runs.map(
      (run, i) =>
        `<li><a class="status-${run.status ?? "unfinished"}" href="#run-${i + 1}">${i + 1}. ${esc(run.backend)} ${run.status ?? "unfinished"}</a></li>`,
    );
    out.push(`<nav class="runs" aria-label="Runs"><ul class="picker">${links.join("")}</ul></nav>`);
  }
  data.runs.forEach((run, i) => {
    out.push(renderRun(run, i, many));
  });
  if (data.moreRunsCount) {
    const rows = data.moreRuns.map(
      (r) =>
        `<tr><td>${esc(r.file)}</td><td>${esc(r.run_id)}</td><td>${esc(r.status ?? "unfinished")}</td><td>${fmtN(r.events)}</td></tr>`,
    );
    out.push(
      `<h2>${fmtN(data.moreRunsCount)} more runs (summary only)</h2><table class="more-runs"><tr><th>file</th><th>run id</th><th>status</th><th>events</th></tr>${rows.join("")}</table>`,
    );
  }
  return out.join("\n");
}

function figure(term: string, value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === "") return "";
  return `<div><dt>${term}</dt><dd>${esc(String(value))}</dd></div>`;
}

/** The run's duration, with where it comes from (RunData.timing). */
function runDuration(run: RunData): string {
  if (run.timing === "none") return TIMES_UNKNOWN;
  const figure = fmtMs(run.duration_ms ?? run.end);
  return run.timing === "native" ? `${figure} (the backend's own times)` : figure;
}

function figures(run: RunData): string {
  const c = run.counts;
  const u = run.usage;
  const rows = [
    figure("file", run.file),
    figure("mode", run.mode),
    figure("started", run.started),
    figure("duration", runDuration(run)),
    figure("exit code", run.exit_code),
    figure("turns", fmtN(c.turns)),
    figure("messages", fmtN(c.messages)),
    figure("tool calls", fmtN(c.tool_calls) + (c.tool_failures ? ` (${fmtN(c.tool_failures)} failed)` : "")),
    figure("errors", fmtN(c.errors)),
    figure("retries", fmtN(c.retries)),
    c.unknown_events || c.unparsed_lines
      ? figure("unknown / unparsed", `${fmtN(c.unknown_events)} / ${fmtN(c.unparsed_lines)}`)
      : "",
    figure("sub-agents", run.lanes.length > 1 ? fmtN(run.lanes.length - 1) : ""),
  ];
  if (u) {
    rows.push(
      figure(
        "input tokens",
        fmtN(u.input_tokens) + (u.cache_read_input_tokens ? ` (${fmtN(u.cache_read_input_tokens)} cache read)` : ""),
      ),
      figure(
        "output tokens",
        fmtN(u.output_tokens) + (u.reasoning_tokens ? ` (${fmtN(u.reasoning_tokens)} reasoning)` : ""),
      ),
      u.cost_usd !== undefined ? figure("cost", `$${u.cost_usd.toFixed(4)}`) : "",
      u.complete === false ? figure("usage note", "incomplete: the backend leaves some calls out") : "",
    );
  }
  rows.push(
    figure("events", fmtN(run.events)),
    run.pending ? figure("pending input requests", fmtN(run.pending)) : "",
    figure("resume", run.resume),
  );
  return `<dl class="figures">${rows.join("")}</dl>`;
}

function errors(run: RunData): string {
  const marks = run.marks.filter((m) => m.kind === "error");
  if (!run.error && !marks.length) return "";
  const items: string[] = [];
  if (run.error)
    items.push(
      `<li class="run-error"><span class="code">${esc(run.error.code)}</span> (run${run.error.retryable ? ", retryable" : ""}): ${esc(clipText(run.error.message))}</li>`,
    );
  const item = (m: (typeof marks)[number]) =>
    `<li class="error"><span class="code">${esc(m.label)}</span> at ${fmtAt(run, m.t)} (${esc(run.lanes[m.lane]!.name)}): ${esc(clipText(m.detail))}</li>`;
  items.push(...marks.slice(0, SHOWN_ERRORS).map(item));
  let out = `<h3>Errors</h3><ul class="errors">${items.join("")}</ul>`;
  if (marks.length > SHOWN_ERRORS)
    out += `<details class="more-errors"><summary>${fmtN(marks.length - SHOWN_ERRORS)} more errors</summary><ul class="errors">${marks.slice(SHOWN_ERRORS).map(item).join("")}</ul></details>`;
  return out;
}

function renderRun(run: RunData, index: number, many: boolean): string {
  const id = `run-${index + 1}`;
  const status = run.status ?? "unfinished";
  const answer = run.answer
    ? `<pre class="answer-text">${esc(clipText(run.answer))}</pre>`
    : `<p class="none">${run.status ? "No final answer." : "No final answer: the stream ended without run.finished."}</p>`;
  const stderr = run.stderr
    ? `<details class="stderr"><summary>Backend stderr (last lines)</summary><pre>${esc(clipText(run.stderr))}</pre></details>`
    : "";
  return `<section class="run" id="${id}" aria-labelledby="${id}-h" data-status="${status}">
<h2 id="${id}-h">${many ? `Run ${index + 1}: ` : ""}${esc(run.backend)} \u00b7 ${esc(run.run_id)} <span class="badge status-${status}">${status}</span></h2>
${figures(run)}
<h3>Final answer</h3>${answer}
${errors(run)}${stderr}
<h3>Timeline</h3>
${renderTimeline(run)}
</section>`;
}
