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
.omitted { color: var(--muted); font-size: 0.85rem; margin: 0.4rem 0 0; }
.controls { display: flex; gap: 0.4rem; align-items: center; flex-wrap: wrap; margin: 0 0 0.4rem; }
.controls button, .close { font: inherit; font-size: 0.85rem; padding: 0.1rem 0.6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); cursor: pointer; }
.legend { display: flex; gap: 0.8rem; flex-wrap: wrap; font-size: 0.8rem; color: var(--muted); margin-left: auto; }
.legend span::before { content: ""; display: inline-block; width: 0.9rem; height: 0.6rem; margin-right: 0.3rem; vertical-align: baseline; border-radius: 2px; background: var(--c); }
.tl-scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
.tl-inner { min-width: 100%; }
.tl-row { display: flex; border-top: 1px solid var(--line); }
.tl-row:first-child { border-top: 0; }
.tl-label { position: sticky; left: 0; z-index: 2; flex: 0 0 13rem; width: 13rem; padding: 0.25rem 0.5rem; background: var(--bg); border-right: 1px solid var(--line); font-size: 0.8rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tl-label small { color: var(--muted); }
.tl-track { position: relative; flex: 1 1 auto; min-width: 0; margin: 0 0.5rem; contain: layout paint; }
/* A long run has many lanes: those out of view are not laid out or painted until scrolled to. */
.tl-row.lane { content-visibility: auto; }
.axis .tl-track { height: 1.6rem; }
.tick { position: absolute; top: 0; bottom: 0; border-left: 1px solid var(--line); font-size: 0.7rem; color: var(--muted); padding-left: 2px; white-space: nowrap; }
.turns .tl-track { height: 1.4rem; }
.turn { position: absolute; top: 3px; height: calc(100% - 6px); min-width: 2px; border: 1px solid var(--line); background: var(--track); border-radius: 3px; font-size: 0.7rem; color: var(--muted); overflow: hidden; white-space: nowrap; padding: 0 3px; }
.span { position: absolute; top: 0; bottom: 0; background: var(--sub); border-left: 2px solid var(--focus); opacity: 0.8; }
.bar { contain: strict; position: absolute; height: 18px; min-width: 4px; padding: 0 4px; border: 0; border-radius: 3px; background: var(--c); color: var(--bar-fg); font: 11px/18px system-ui, sans-serif; text-align: left; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; cursor: pointer; }
.bar.status-succeeded { --c: var(--ok); }
.bar.status-failed { --c: var(--fail); background-image: repeating-linear-gradient(135deg, transparent 0 5px, rgba(0,0,0,0.22) 5px 8px); }
.bar.status-cancelled { --c: var(--cancel); background-image: repeating-linear-gradient(90deg, transparent 0 6px, rgba(0,0,0,0.2) 6px 8px); }
.bar.status-open { --c: var(--open); background-image: repeating-linear-gradient(45deg, transparent 0 4px, rgba(255,255,255,0.35) 4px 8px); }
.mark { position: absolute; top: 1px; width: 10px; height: 10px; margin-left: -5px; padding: 0; border: 0; border-radius: 50%; background: var(--msg); cursor: pointer; }
.mark.kind-error { background: var(--fail); border-radius: 0; transform: rotate(45deg); }
.mark.kind-retry, .mark.kind-compaction, .mark.kind-input, .mark.kind-model { background: var(--mark); border-radius: 2px; }
.usage .tl-track { height: 64px; }
.usage svg { position: absolute; inset: 4px 0; width: 100%; height: calc(100% - 8px); overflow: visible; }
.usage polyline { fill: none; stroke-width: 2; vector-effect: non-scaling-stroke; }
.usage .in { stroke: var(--input); }
.usage .out { stroke: var(--output); }
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
`;
