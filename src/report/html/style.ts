// The HTML report's stylesheet, inlined into the page: light and dark from
// prefers-color-scheme, visible focus, status told by pattern as well as colour.
export const STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa; --track: #f6f8fa;
  --ok: #1a7f37; --fail: #cf222e; --cancel: #9a6700; --open: #0969da; --bar-fg: #ffffff;
  --msg: #8250df; --mark: #bc4c00; --sub: #ddf4ff; --focus: #0969da; --input: #0969da; --output: #8250df;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23; --track: #151b23;
    --ok: #3fb950; --fail: #f85149; --cancel: #d29922; --open: #58a6ff; --bar-fg: #0d1117;
    --msg: #bc8cff; --mark: #f0883e; --sub: #12263a; --focus: #79c0ff; --input: #58a6ff; --output: #bc8cff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 1400px; margin: 0 auto; padding: 1rem 1.25rem 4rem; }
h1 { font-size: 1.4rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 0 0 0.5rem; display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; }
h3 { font-size: 1rem; margin: 1.25rem 0 0.4rem; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
a { color: var(--focus); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.selected { outline: 2px solid var(--fg); outline-offset: 1px; }
.run { border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 0 0 1.5rem; }
.picker { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0 0 1rem; padding: 0; list-style: none; }
.picker a { display: inline-block; padding: 0.15rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; text-decoration: none; color: var(--fg); }
.badge { font-size: 0.8rem; font-weight: 600; padding: 0.1rem 0.5rem; border-radius: 999px; border: 1px solid currentColor; }
.badge.status-succeeded { color: var(--ok); }
.badge.status-failed, .badge.status-timed_out { color: var(--fail); }
.badge.status-cancelled, .badge.status-needs_input { color: var(--cancel); }
.badge.status-unfinished { color: var(--muted); }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: 0.4rem 1rem; margin: 0.5rem 0 0; }
.figures div { min-width: 0; }
.figures dt { color: var(--muted); font-size: 0.8rem; }
.figures dd { margin: 0; overflow-wrap: anywhere; }
.answer-text { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.75rem; max-height: 24rem; overflow: auto; }
.none { color: var(--muted); font-style: italic; margin: 0; }
.errors { margin: 0; padding-left: 1.2rem; }
.errors li { margin: 0.2rem 0; }
.errors .code { font-weight: 600; color: var(--fail); }
.omitted, .no-times { color: var(--muted); font-size: 0.85rem; margin: 0.4rem 0 0; }
.controls { display: flex; gap: 0.4rem; align-items: center; flex-wrap: wrap; margin: 0 0 0.4rem; }
.controls button, .close { font: inherit; font-size: 0.85rem; padding: 0.1rem 0.6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); cursor: pointer; }
.legend { display: flex; gap: 0.8rem; flex-wrap: wrap; font-size: 0.8rem; color: var(--muted); margin-left: auto; }
.legend span::before { content: ""; display: inline-block; width: 0.9rem; height: 0.6rem; margin-right: 0.3rem; vertical-align: baseline; border-radius: 2px; background: var(--c); print-color-adjust: exact; }
.legend .key-ok { --c: var(--ok); } .legend .key-fail { --c: var(--fail); } .legend .key-cancel { --c: var(--cancel); }
.legend .key-open { --c: var(--open); } .legend .key-msg { --c: var(--msg); } .legend .key-mark { --c: var(--mark); }
.tl-scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
/* --zoom (set by the script's buttons) widens the track; the labels stay put. */
.tl-grid { display: flex; width: calc(13rem + (100% - 13rem) * var(--zoom, 1)); }
.tl-labels { position: sticky; left: 0; z-index: 2; flex: 0 0 13rem; width: 13rem; background: var(--bg); border-right: 1px solid var(--line); }
.tl-label, .tl-row { padding: 0.2rem 0.5rem; border-top: 1px solid var(--line); font-size: 0.8rem; line-height: 1.2; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tl-label.axis { border-top: 0; }
.tl-row small { color: var(--muted); }
.tl-area { flex: 1 1 auto; min-width: 0; padding: 0 0.5rem; }
.tl-svg { display: block; overflow: hidden; font: 11px system-ui, sans-serif; }
.tl-svg .tick { stroke: var(--line); fill: var(--muted); font-size: 10px; }
.tl-svg text.tick { stroke: none; }
.tl-svg .sep { stroke: var(--line); }
.tl-svg rect.turn { height: 14px; fill: var(--track); stroke: var(--line); }
.tl-svg .turns text { fill: var(--muted); font-size: 10px; }
.tl-svg .span { fill: var(--sub); opacity: 0.8; }
.bar { --c: var(--open); cursor: pointer; }
.bar rect, rect.bar { height: 18px; fill: var(--c); stroke: var(--c); stroke-width: 1px; }
/* A bar too narrow for its label is a bare <rect>: it keeps a minimum width (its stroke) and names itself in its <title>. */
rect.bar { height: 12px; stroke-width: 6px; }
.bar text { fill: var(--bar-fg); }
.bar.succeeded { --c: var(--ok); }
.bar.failed { --c: var(--fail); }
.bar.failed rect, rect.bar.failed { fill: url(#pat-failed); }
.bar.cancelled { --c: var(--cancel); }
.bar.cancelled rect, rect.bar.cancelled { fill: url(#pat-cancelled); }
.bar.open rect, rect.bar.open { fill: url(#pat-open); }
.bar.selected rect, .bar:focus-visible rect, rect.bar.selected, rect.bar:focus-visible { stroke: var(--fg); }
.bar:focus-visible, .mark:focus-visible { outline: none; }
.mark { cursor: pointer; fill: var(--mark); stroke: var(--bg); stroke-width: 1px; }
.mark.msg { fill: var(--msg); cy: 7px; r: 5px; }
rect.mark { y: 2px; width: 10px; height: 10px; transform: translateX(-5px); transform-box: fill-box; }
rect.mark.kind-error { fill: var(--fail); transform: translateX(-5px) rotate(45deg); transform-origin: center; }
.mark.selected, .mark:focus-visible { stroke: var(--fg); stroke-width: 2px; }
.tl-svg .usage polyline { fill: none; stroke-width: 2; vector-effect: non-scaling-stroke; }
.tl-svg .usage .in { stroke: var(--input); }
.tl-svg .usage .out { stroke: var(--output); }
.patterns { position: absolute; width: 0; height: 0; }
.pf-failed { fill: var(--fail); } .pf-cancelled { fill: var(--cancel); } .pf-open { fill: var(--open); }
.pf-dark { fill: rgba(0,0,0,0.22); } .pf-light { fill: rgba(255,255,255,0.35); }
.usage-note { margin: 0.3rem 0 0; font-size: 0.8rem; color: var(--muted); }
details.stderr { margin-top: 0.5rem; }
#details { position: fixed; right: 0; bottom: 0; left: 0; z-index: 10; max-height: 50vh; overflow: auto; background: var(--bg); color: var(--fg); border-top: 1px solid var(--line); box-shadow: 0 -6px 24px rgba(0,0,0,0.25); padding: 0.75rem 1rem 1rem; }
/* On a wide screen the details sit beside the report, which makes room for them. */
@media (min-width: 1000px) {
  #details { top: 0; left: auto; width: 28rem; max-height: none; border-top: 0; border-left: 1px solid var(--line); box-shadow: -6px 0 24px rgba(0,0,0,0.2); }
  body.details-open main { margin-right: 28rem; }
}
#details[hidden] { display: none; }
#details h2 { font-size: 1.05rem; margin: 0 2.5rem 0.4rem 0; }
#details .close { position: absolute; top: 0.6rem; right: 0.6rem; }
#details pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; max-height: 18rem; overflow: auto; }
.more-runs { border-collapse: collapse; font-size: 0.85rem; }
.more-runs td, .more-runs th { border: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; }
/* Print and "Save as PDF": every run and its whole timeline, one run a page, no screen-only aids. */
@media print {
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  main { max-width: none; padding: 0; }
  body.details-open main { margin-right: 0; }
  nav.runs, #details, .controls button { display: none !important; }
  .run { border: 0; padding: 0; margin: 0; }
  .run + .run { break-before: page; }
  .timeline, .figures > div, .errors li { break-inside: avoid; }
  .tl-scroll { overflow: visible; border-color: #999; }
  .tl-grid { width: 100% !important; }
  .answer-text, #details pre { max-height: none; overflow: visible; }
  details > summary { list-style: none; }
  details::details-content { content-visibility: visible; display: block; }
}
`;
