// One run's timeline as static markup, drawn here in Node so that it shows
// without JavaScript and in print: lane labels in an HTML column beside one
// inline SVG. Horizontal positions are percentages of the track, so the page's
// zoom only widens the SVG; heights are pixels, packed here.
import { escapeHtml as esc } from "../escape-html.js";
import { fmtAt, fmtMs, fmtN } from "./format.js";
import { kept, type LaneData, type RunData, type ToolData } from "./model.js";

const ROW = 22;
/** Room above a lane's bars for its markers. */
const MARKS = 14;
/** Overlapping calls of one lane stack in up to this many rows. */
const MAX_ROWS = 24;
const AXIS_H = 22;
const TURNS_H = 20;
const USAGE_H = 64;
/** The track width assumed when deciding whether a bar is wide enough for its label. */
const NOMINAL_PX = 1000;
const CHAR_PX = 6.5;
const LABEL_PAD = 8;
/** A bar narrower than this share of the run still takes this much room in its row. */
const MIN_SPAN = 0.006;
/** Turns narrower than this (at the nominal width) are drawn merged with their thin neighbours, up to MERGE_PX. */
const HOVER_PX = 4;
const MERGE_PX = 16;
/** Characters of a message in its marker's tooltip. */
const PREVIEW = 48;

/** Below the timeline of a recording that states no times: what its axis is instead. */
const NO_TIMES_NOTE =
  '<p class="no-times">Times unknown: this recorded stream does not time its events, so the timeline places its events in the order they were read, not when they happened, and the durations of its calls are unknown (where the backend reported none).</p>';

/** A percentage of the track, short. */
function pc(t: number, total: number): string {
  return `${Math.round((t / total) * 100_000) / 1000}%`;
}

function labelFits(text: string, share: number): boolean {
  return share * NOMINAL_PX >= LABEL_PAD + CHAR_PX * text.length;
}

export function toolEnd(run: RunData, t: ToolData): number {
  let end = t.t1 === undefined ? run.end : t.t1;
  if (t.d !== undefined && t.t0 + t.d > end) end = t.t0 + t.d;
  return end;
}

export function toolDuration(run: RunData, t: ToolData): number {
  return t.d !== undefined ? t.d : toolEnd(run, t) - t.t0;
}

/** Lanes depth-first: each sub-agent right under the agent that spawned it. */
function laneOrder(run: RunData): { lane: LaneData; depth: number }[] {
  const children = new Map<number, LaneData[]>();
  for (const lane of run.lanes) {
    if (lane.parent < 0) continue;
    const list = children.get(lane.parent);
    if (list) list.push(lane);
    else children.set(lane.parent, [lane]);
  }
  const out: { lane: LaneData; depth: number }[] = [];
  const stack: { lane: LaneData; depth: number }[] = [{ lane: run.lanes[0]!, depth: 0 }];
  while (stack.length) {
    const next = stack.pop()!;
    out.push(next);
    const kids = children.get(next.lane.id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ lane: kids[i]!, depth: next.depth + 1 });
  }
  return out;
}

function niceStep(total: number): number {
  const raw = total / 8;
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / p;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * p;
}

/** The run's time span: its end, or later where a call or lane ends later. */
function span(run: RunData): number {
  let T = Math.max(run.end, run.duration_ms ?? 0, 1);
  for (const t of run.tools) T = Math.max(T, toolEnd(run, t));
  for (const l of run.lanes) if (l.t1 !== undefined) T = Math.max(T, l.t1);
  // A recording ends at its last stated time, where its last markers sit: room for them to be drawn whole
  // (not past the largest number: an end near it would make the axis, and its ticks, endless).
  const padded = run.timing === "clock" ? T : T * 1.02;
  return Number.isFinite(padded) ? padded : Number.MAX_VALUE;
}

/** Each call's row in its lane, packed so that overlapping calls do not hide each other. */
function packRows(run: RunData, T: number): { row: number[]; rows: Map<number, number> } {
  const ends = new Map<number, number[]>();
  const row = run.tools.map((t, i) => {
    let laneEnds = ends.get(t.lane);
    if (!laneEnds) {
      laneEnds = [];
      ends.set(t.lane, laneEnds);
    }
    let r = 0;
    while (r < laneEnds.length && laneEnds[r]! > t.t0) r++;
    if (r >= MAX_ROWS) r = i % MAX_ROWS;
    laneEnds[r] = Math.max(toolEnd(run, t), t.t0 + T * MIN_SPAN);
    return r;
  });
  const rows = new Map<number, number>();
  for (const [lane, list] of ends) rows.set(lane, list.length);
  return { row, rows };
}

const LEGEND = [
  ["succeeded", "ok"],
  ["failed", "fail"],
  ["cancelled", "cancel"],
  ["open", "open"],
  ["message", "msg"],
  ["error / retry / other", "mark"],
]
  .map(([label, key]) => `<span class="key-${key}">${label}</span>`)
  .join("");

export function renderTimeline(run: RunData): string {
  const T = span(run);
  const x = (t: number) => pc(t, T);
  const order = laneOrder(run);
  const { row, rows } = packRows(run, T);
  const laneTop = new Map<number, number>();
  const timed = run.timing !== "none";
  const labels: string[] = [
    `<div class="tl-label axis" style="height:${AXIS_H}px">${timed ? "time" : "order read"}</div>`,
  ];
  let y = AXIS_H;
  const turnsTop = y;
  if (run.turns.length) {
    labels.push(`<div class="tl-label" style="height:${TURNS_H}px">turns</div>`);
    y += TURNS_H;
  }
  const laneHeight = (id: number) => MARKS + Math.max(1, rows.get(id) ?? 0) * ROW;
  for (const { lane, depth } of order) {
    laneTop.set(lane.id, y);
    const h = laneHeight(lane.id);
    const title = `${lane.name}${lane.instance ? ` (${lane.instance})` : ""}${lane.description ? `: ${lane.description}` : ""}`;
    labels.push(
      `<div class="tl-row lane${lane.id ? " sub" : ""}" data-lane="${lane.id}" data-depth="${depth}" title="${esc(title)}" style="height:${h}px;padding-left:${0.5 + depth * 1.1}rem">${depth ? "\u21b3 " : ""}${esc(lane.name)}${lane.instance ? ` <small>${esc(lane.instance)}</small>` : ""}</div>`,
    );
    y += h;
  }
  const usageTop = y;
  if (run.usageLine.length) {
    labels.push(`<div class="tl-label" style="height:${USAGE_H}px">tokens (cumulative)</div>`);
    y += USAGE_H;
  }
  const height = y;

  const svg: string[] = [];
  const step = niceStep(T);
  for (let t = 0; t <= T; t += step)
    svg.push(
      `<line class="tick" x1="${x(t)}" x2="${x(t)}" y2="${height}"/>${timed ? `<text class="tick" x="${x(t)}" dx="3" y="15">${fmtMs(t)}</text>` : ""}`,
    );
  for (const top of [AXIS_H, ...(run.turns.length ? [AXIS_H + TURNS_H] : []), ...laneTop.values(), usageTop])
    if (top < height) svg.push(`<line class="sep" x2="100%" y1="${top}" y2="${top}"/>`);
  if (run.turns.length) svg.push(turnsRow(run, T, turnsTop));
  for (const { lane } of order) svg.push(laneGroup(run, lane, laneTop.get(lane.id)!, laneHeight(lane.id), row, T));
  if (run.usageLine.length) svg.push(usageLine(run, T, usageTop));

  return `<div class="timeline" role="region" aria-label="Timeline of run ${esc(run.run_id)}">
<div class="controls"><div class="legend">${LEGEND}</div></div>
<div class="tl-scroll"><div class="tl-grid"><div class="tl-labels">${labels.join("")}</div><div class="tl-area"><svg class="tl-svg" width="100%" height="${height}" xmlns="http://www.w3.org/2000/svg">${svg.join("")}</svg></div></div></div>
</div>${timed ? "" : NO_TIMES_NOTE}${usageNote(run)}${omittedNote(run)}`;
}

function turnsRow(run: RunData, T: number, top: number): string {
  const out: string[] = [];
  const px = (ms: number) => (ms / T) * NOMINAL_PX;
  let i = 0;
  while (i < run.turns.length) {
    const first = run.turns[i]!;
    let end = first.t1 ?? T;
    let j = i + 1;
    // Turns too thin to point at merge with the thin ones right after them, up to MERGE_PX: one box, one tooltip.
    if (px(end - first.t0) < HOVER_PX)
      while (j < run.turns.length) {
        const next = run.turns[j]!;
        const nextEnd = next.t1 ?? T;
        if (px(nextEnd - next.t0) >= HOVER_PX || px(nextEnd - first.t0) > MERGE_PX || next.t0 < end) break;
        end = nextEnd;
        j++;
      }
    const last = run.turns[j - 1]!;
    const width = Math.max(0, end - first.t0);
    const box = `x="${pc(first.t0, T)}" width="${pc(Math.max(width, T * 1e-5), T)}"`;
    const title =
      j - i > 1
        ? `Turns ${first.turn} to ${last.turn}: ${fmtAt(run, first.t0)} to ${fmtAt(run, end)}`
        : `Turn ${first.turn}: ${fmtAt(run, first.t0)} to ${fmtAt(run, end)}${first.stop ? ` (${esc(first.stop)})` : ""}`;
    out.push(`<rect class="turn" ${box}><title>${title}</title></rect>`);
    if (j - i === 1 && labelFits(String(first.turn), width / T))
      out.push(`<svg ${box} height="14"><text x="3" y="11">${first.turn}</text></svg>`);
    i = j;
  }
  return `<svg class="turns" y="${top + 3}" overflow="visible">${out.join("")}</svg>`;
}

/**
 * One lane's span, bars and markers, in a nested <svg> at the lane's top: inside
 * it heights are the lane's own, and markers' offsets come from the stylesheet.
 */
function laneGroup(run: RunData, lane: LaneData, top: number, height: number, row: number[], T: number): string {
  const x = (t: number) => pc(t, T);
  const parts: string[] = [];
  if (lane.id) {
    const end = lane.t1 ?? T;
    parts.push(
      `<rect class="span" x="${x(lane.t0)}" width="${x(Math.max(0, end - lane.t0))}" height="${height}"><title>${esc(lane.name)}: ${fmtAt(run, lane.t0)} to ${fmtAt(run, end)}${lane.paused ? " (paused)" : ""}</title></rect>`,
    );
  }
  run.tools.forEach((t, i) => {
    if (t.lane !== lane.id) return;
    const end = toolEnd(run, t);
    const share = Math.max(0, end - t.t0) / T;
    const barTop = MARKS + row[i]! * ROW;
    // Colour and pattern tell the status; the tooltip names it unless the call succeeded.
    const title = `<title>${esc(t.name)}, ${t.status === "succeeded" ? "" : `${t.status}, `}${t.d === undefined && run.timing === "none" ? "duration unknown" : fmtMs(toolDuration(run, t))}</title>`;
    // A zero width would not be drawn at all; a narrow bar's stroke gives it its minimum width.
    const box = `x="${x(t.t0)}" width="${x(Math.max(share * T, T * 1e-5))}"`;
    if (labelFits(t.name, share))
      parts.push(
        `<g class="bar tool ${t.status}" data-i="${i}">${title}<rect ${box} y="${barTop}"/><svg ${box} y="${barTop}" height="18"><text x="4" y="13">${esc(t.name)}</text></svg></g>`,
      );
    else parts.push(`<rect class="bar tool ${t.status}" data-i="${i}" ${box} y="${barTop + 3}">${title}</rect>`);
  });
  run.messages.forEach((m, i) => {
    if (m.lane !== lane.id) return;
    parts.push(
      `<circle class="mark msg" data-m="${i}" cx="${x(m.t)}"><title>Message at ${fmtAt(run, m.t)}: ${esc(preview(kept(m.text)))}</title></circle>`,
    );
  });
  run.marks.forEach((m, i) => {
    if (m.lane !== lane.id) return;
    parts.push(
      `<rect class="mark kind-${m.kind}" data-k="${i}" x="${x(m.t)}"><title>${esc(m.label)} at ${fmtAt(run, m.t)}</title></rect>`,
    );
  });
  return `<svg class="lane" data-lane="${lane.id}" y="${top}" overflow="visible">${parts.join("")}</svg>`;
}

/** The start of a message, for its marker's tooltip (the details show it whole). */
function preview(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}\u2026` : line;
}

/** Cumulative tokens on the timeline's time axis, one scale for input and output. */
function usageLine(run: RunData, T: number, top: number): string {
  const pts = run.usageLine;
  const last = pts[pts.length - 1]!;
  const max = Math.max(last[1], last[2], 1);
  const y = (v: number) => (98 - (v / max) * 94).toFixed(1);
  const polyline = (k: 1 | 2, cls: string) => {
    const coords = [`0,${y(0)}`];
    let prev = 0;
    for (const p of pts) {
      const px = ((p[0] / T) * 1000).toFixed(1);
      coords.push(`${px},${y(prev)}`, `${px},${y(p[k])}`);
      prev = p[k];
    }
    coords.push(`1000,${y(prev)}`);
    return `<polyline class="${cls}" points="${coords.join(" ")}"/>`;
  };
  const label = `Cumulative tokens over time: ${fmtN(last[1])} input and ${fmtN(last[2])} output${run.timing === "none" ? "" : ` by ${fmtMs(last[0])}`}`;
  return `<svg class="usage" y="${top + 4}" width="100%" height="${USAGE_H - 8}" viewBox="0 0 1000 100" preserveAspectRatio="none" role="img" aria-label="${label}">${polyline(1, "in")}${polyline(2, "out")}</svg>`;
}

function usageNote(run: RunData): string {
  const pts = run.usageLine;
  if (!pts.length) return "";
  const last = pts[pts.length - 1]!;
  const max = Math.max(last[1], last[2], 1);
  const cost = last[3] ? `, cost $${last[3].toFixed(4)}` : "";
  return `<p class="usage-note">Usage over time (the tokens row, one scale up to ${fmtN(max)}): input (blue) ${fmtN(last[1])}, output (purple) ${fmtN(last[2])}${cost}${run.timing === "none" ? "" : ` by ${fmtMs(last[0])}`}.</p>`;
}

function omittedNote(run: RunData): string {
  const om = run.omitted;
  const notes: string[] = [];
  const tools = Object.entries(om.tools).map(([status, n]) => `${fmtN(n)} ${status}`);
  if (tools.length) notes.push(`tool calls not drawn: ${tools.join(", ")}`);
  if (om.messages) notes.push(`${fmtN(om.messages)} messages not drawn`);
  if (om.marks) notes.push(`${fmtN(om.marks)} other events not drawn`);
  if (om.lanes) notes.push(`${fmtN(om.lanes)} sub-agents share the last lane`);
  return notes.length
    ? `<p class="omitted">The report keeps a bounded part of a long run: ${esc(notes.join("; "))}.</p>`
    : "";
}
