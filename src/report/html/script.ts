// The HTML report's script, inlined into the page. The page's content is
// already in its HTML and SVG; this only adds interaction: zoom, the details
// panel (read from the embedded JSON, put in with textContent only), keyboard
// access to bars and markers, and opening closed <details> for print. It sets
// the "agentstream-rendered" performance mark after the first paint.
// Plain browser JavaScript in a template literal: no backticks, "${" or backslashes in it.
import { clipText, fmtAt, fmtMs, fmtN } from "./format.js";
import { toolDuration, toolEnd } from "./timeline.js";

const INTERACTION = `
  var details = document.getElementById("details");
  var opener = null;
  var data = null;
  function runData() {
    if (!data) data = JSON.parse(document.getElementById("agentstream-data").textContent);
    return data;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function figure(dl, term, value) {
    if (value === undefined || value === null || value === "") return;
    var d = el("div");
    d.appendChild(el("dt", null, term));
    d.appendChild(el("dd", null, value));
    dl.appendChild(d);
  }

  // ---- details panel ----
  function openDetails(item, title, rows, blocks) {
    var body = details.querySelector(".body");
    body.textContent = "";
    var h = details.querySelector("h2");
    h.textContent = title;
    var dl = el("dl", "figures");
    rows.forEach(function (r) { figure(dl, r[0], r[1]); });
    body.appendChild(dl);
    blocks.forEach(function (b) {
      body.appendChild(el("h3", null, b[0]));
      body.appendChild(el("pre", b[2] || null, b[1]));
    });
    if (opener) opener.classList.remove("selected");
    opener = item;
    item.classList.add("selected");
    details.hidden = false;
    document.body.classList.add("details-open");
    h.focus();
  }
  function closeDetails() {
    if (details.hidden) return;
    details.hidden = true;
    document.body.classList.remove("details-open");
    if (opener) opener.classList.remove("selected");
    if (opener && document.contains(opener)) opener.focus();
    opener = null;
  }
  details.querySelector(".close").addEventListener("click", closeDetails);

  // Arguments kept whole travel as themselves and show indented; cut ones as their JSON text.
  function argsText(args) {
    return args && typeof args === "object" && "v" in args ? JSON.stringify(args.v, null, 2) : clipText(args);
  }
  function laneName(lane) { return lane.name + (lane.instance ? " (" + lane.instance + ")" : ""); }
  function showTool(run, i, item) {
    var t = run.tools[i];
    var spawned = run.lanes.filter(function (l) { return l.via === i; }).map(laneName);
    openDetails(item, t.name, [
      ["status", t.status + (t.reason ? " (" + t.reason + ")" : "")],
      ["duration", t.d !== undefined ? fmtMs(t.d) + " (reported by the backend)" : run.timing === "none" ? "unknown: the recording does not time its events" : fmtMs(toolDuration(run, t))],
      ["started at", fmtAt(run, t.t0)],
      ["ended at", t.t1 === undefined ? "never (stream ended)" : fmtAt(run, t.t1)],
      ["agent", laneName(run.lanes[t.lane])],
      ["call id", t.id],
      ["updates", t.updates ? fmtN(t.updates) : ""],
      ["spawned", spawned.join(", ")],
    ], [["Arguments", argsText(t.args), "args"], ["Output", t.out === undefined ? "(none: the call never completed)" : t.out === "" ? "(empty)" : clipText(t.out), "output"]]);
  }
  function show(item) {
    var section = item.closest("section.run");
    var run = runData().runs[Number(section.id.slice(4)) - 1];
    if (item.hasAttribute("data-i")) return showTool(run, Number(item.getAttribute("data-i")), item);
    if (item.hasAttribute("data-m")) {
      var m = run.messages[Number(item.getAttribute("data-m"))];
      return openDetails(item, "Message", [["agent", run.lanes[m.lane].name], ["at", fmtAt(run, m.t)], ["model", m.model]], [["Text", clipText(m.text)]]);
    }
    var k = run.marks[Number(item.getAttribute("data-k"))];
    openDetails(item, k.label, [["kind", k.kind], ["agent", run.lanes[k.lane].name], ["at", fmtAt(run, k.t)]], [["Detail", clipText(k.detail)]]);
  }
  function itemOf(target) {
    return target && target.closest ? target.closest(".tl-svg .bar, .tl-svg .mark") : null;
  }

  // Bars and markers become buttons: focusable, named by their <title>.
  Array.prototype.forEach.call(document.querySelectorAll(".tl-svg .bar, .tl-svg .mark"), function (b) {
    b.setAttribute("tabindex", "0");
    b.setAttribute("role", "button");
  });
  document.addEventListener("click", function (e) {
    var item = itemOf(e.target);
    if (item) show(item);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") return closeDetails();
    var item = itemOf(e.target);
    if (!item) return;
    if (e.key === "Enter" || e.key === " ") { show(item); e.preventDefault(); return; }
    // Arrow keys move between the items of one lane.
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    var next = item;
    do next = e.key === "ArrowRight" ? next.nextElementSibling : next.previousElementSibling;
    while (next && !itemOf(next));
    if (next) { next.focus(); e.preventDefault(); }
  });

  // Zoom widens the track; the lane labels stay in view.
  Array.prototype.forEach.call(document.querySelectorAll(".timeline"), function (box) {
    var grid = box.querySelector(".tl-grid");
    var controls = box.querySelector(".controls");
    var legend = controls.firstChild;
    var zoom = 1;
    function setZoom(z) { zoom = Math.max(1, Math.min(64, z)); grid.style.setProperty("--zoom", String(zoom)); }
    [["Zoom in", function () { setZoom(zoom * 2); }], ["Zoom out", function () { setZoom(zoom / 2); }], ["Fit", function () { setZoom(1); }]].forEach(function (c) {
      var b = el("button", null, c[0]);
      b.type = "button";
      b.addEventListener("click", c[1]);
      controls.insertBefore(b, legend);
    });
  });

  // Print shows everything: closed <details> open for it and close again after.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = Array.prototype.filter.call(document.querySelectorAll("main details:not([open])"), function (d) { d.open = true; return true; });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
`;

export const SCRIPT = `
(function () {
  "use strict";
${[fmtMs, fmtAt, fmtN, clipText, toolEnd, toolDuration].map((f) => f.toString()).join("\n")}
  try {
${INTERACTION}
  } catch (err) {
    console.error(err);
  }
  performance.mark("agentstream-built");
  // "rendered": after the frame that shows the page has been painted.
  requestAnimationFrame(function () {
    setTimeout(function () {
      performance.mark("agentstream-rendered");
      document.documentElement.setAttribute("data-rendered", "true");
    }, 0);
  });
})();
`;
