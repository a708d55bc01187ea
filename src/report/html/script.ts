// The HTML report's script, inlined into the page. It reads the embedded JSON
// and builds the page with createElement and textContent only (no innerHTML
// of data), then sets the "agentstream-rendered" performance mark.
// Plain browser JavaScript in a String.raw literal: no backticks or "${" here.
export const SCRIPT = String.raw`
(function () {
  "use strict";
  var ROW = 22, MARKS = 14, MAX_ROWS = 24, SHOWN_ERRORS = 10;
  var details = document.getElementById("details");
  var opener = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function fmtMs(ms) {
    if (ms === undefined || ms === null) return "\u2013";
    if (ms < 1000) return Math.round(ms) + " ms";
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
    var m = Math.floor(ms / 60000);
    return m + " min " + Math.round((ms % 60000) / 1000) + " s";
  }
  function fmtN(n) { return n === undefined || n === null ? "\u2013" : Number(n).toLocaleString("en-US"); }
  function clipText(c) {
    if (!c) return "";
    return c.n ? c.x + "\n\u2026 (" + fmtN(c.n - c.x.length) + " more characters not kept in the report)" : c.x;
  }
  function figure(dl, term, value) {
    if (value === undefined || value === null || value === "") return;
    var d = el("div");
    d.appendChild(el("dt", null, term));
    d.appendChild(el("dd", null, value));
    dl.appendChild(d);
  }
  function heading(level, text, id) {
    var h = el("h" + level, null, text);
    if (id) h.id = id;
    return h;
  }

  // ---- details panel ----
  function openDetails(button, title, rows, blocks) {
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
    opener = button;
    button.classList.add("selected");
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
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") closeDetails();
  });

  // ---- one run ----
  function laneOrder(run) {
    var children = {};
    run.lanes.forEach(function (l) {
      if (l.parent < 0) return;
      (children[l.parent] = children[l.parent] || []).push(l);
    });
    var out = [];
    (function walk(lane, depth) {
      out.push({ lane: lane, depth: depth });
      (children[lane.id] || []).forEach(function (c) { walk(c, depth + 1); });
    })(run.lanes[0], 0);
    return out;
  }
  function toolEnd(run, t) {
    var end = t.t1 === undefined ? run.end : t.t1;
    if (t.d !== undefined && t.t0 + t.d > end) end = t.t0 + t.d;
    return end;
  }
  function niceStep(total) {
    var raw = total / 8, p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
    var n = raw / p;
    return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * p;
  }

  function renderTimeline(run, sec) {
    var T = Math.max(run.end, run.duration_ms || 0, 1);
    run.tools.forEach(function (t) { T = Math.max(T, toolEnd(run, t)); });
    run.lanes.forEach(function (l) { if (l.t1 !== undefined) T = Math.max(T, l.t1); });
    var pct = function (t) { return (t / T) * 100 + "%"; };

    var box = el("div", "timeline");
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Timeline of run " + run.run_id);
    var controls = el("div", "controls");
    var inner = el("div", "tl-inner");
    var zoom = 1;
    function setZoom(z) { zoom = Math.max(1, Math.min(64, z)); inner.style.width = zoom * 100 + "%"; }
    [["Zoom in", function () { setZoom(zoom * 2); }], ["Zoom out", function () { setZoom(zoom / 2); }], ["Fit", function () { setZoom(1); }]].forEach(function (c) {
      var b = el("button", null, c[0]);
      b.type = "button";
      b.addEventListener("click", c[1]);
      controls.appendChild(b);
    });
    var legend = el("div", "legend");
    [["succeeded", "var(--ok)"], ["failed", "var(--fail)"], ["cancelled", "var(--cancel)"], ["open", "var(--open)"], ["message", "var(--msg)"], ["error / retry / other", "var(--mark)"]].forEach(function (l) {
      var s = el("span", null, l[0]);
      s.style.setProperty("--c", l[1]);
      legend.appendChild(s);
    });
    controls.appendChild(legend);
    box.appendChild(controls);
    var scroll = el("div", "tl-scroll");
    scroll.appendChild(inner);
    box.appendChild(scroll);

    // time axis
    var axis = el("div", "tl-row axis");
    axis.appendChild(el("div", "tl-label", "time"));
    var axisTrack = el("div", "tl-track");
    var step = niceStep(T);
    for (var x = 0; x <= T; x += step) {
      var tick = el("span", "tick", fmtMs(x));
      tick.style.left = pct(x);
      axisTrack.appendChild(tick);
    }
    axis.appendChild(axisTrack);
    inner.appendChild(axis);

    if (run.turns.length) {
      var turns = el("div", "tl-row turns");
      turns.appendChild(el("div", "tl-label", "turns"));
      var turnTrack = el("div", "tl-track");
      run.turns.forEach(function (t) {
        var s = el("span", "turn", String(t.turn));
        var end = t.t1 === undefined ? T : t.t1;
        s.style.left = pct(t.t0);
        s.style.width = pct(Math.max(0, end - t.t0));
        s.title = "Turn " + t.turn + ": " + fmtMs(t.t0) + " to " + fmtMs(end) + (t.stop ? " (" + t.stop + ")" : "");
        turnTrack.appendChild(s);
      });
      turns.appendChild(turnTrack);
      inner.appendChild(turns);
    }

    var tracks = {};
    var byLane = {};
    laneOrder(run).forEach(function (o) {
      var lane = o.lane;
      var row = el("div", "tl-row lane" + (lane.id ? " sub" : ""));
      row.setAttribute("data-lane", String(lane.id));
      row.setAttribute("data-depth", String(o.depth));
      var label = el("div", "tl-label");
      label.style.paddingLeft = 0.5 + o.depth * 1.1 + "rem";
      label.appendChild(document.createTextNode((o.depth ? "\u21b3 " : "") + lane.name));
      if (lane.instance) {
        label.appendChild(document.createTextNode(" "));
        label.appendChild(el("small", null, lane.instance));
      }
      label.title = lane.name + (lane.instance ? " (" + lane.instance + ")" : "") + (lane.description ? ": " + lane.description : "");
      row.appendChild(label);
      var track = el("div", "tl-track");
      if (lane.id) {
        var span = el("div", "span");
        var end = lane.t1 === undefined ? T : lane.t1;
        span.style.left = pct(lane.t0);
        span.style.width = pct(Math.max(0, end - lane.t0));
        span.title = lane.name + ": " + fmtMs(lane.t0) + " to " + fmtMs(end) + (lane.paused ? " (paused)" : "");
        track.appendChild(span);
      }
      row.appendChild(track);
      inner.appendChild(row);
      tracks[lane.id] = track;
      byLane[lane.id] = [];
    });

    // tool bars, packed into rows so that overlapping calls do not hide each other
    var rowEnds = {};
    var minSpan = T * 0.006;
    run.tools.forEach(function (t, i) {
      var ends = rowEnds[t.lane] || (rowEnds[t.lane] = []);
      var end = toolEnd(run, t);
      var r = 0;
      while (r < ends.length && ends[r] > t.t0) r++;
      if (r >= MAX_ROWS) r = i % MAX_ROWS;
      ends[r] = Math.max(end, t.t0 + minSpan);
      var dur = t.d !== undefined ? t.d : end - t.t0;
      var b = el("button", "bar tool status-" + t.status, t.name);
      b.type = "button";
      b.setAttribute("data-status", t.status);
      b.setAttribute("data-i", String(i));
      b.style.left = pct(t.t0);
      b.style.width = pct(Math.max(0, end - t.t0));
      b.style.top = MARKS + r * ROW + "px";
      var text = t.name + ", " + t.status + ", " + fmtMs(dur) + ", at " + fmtMs(t.t0);
      b.setAttribute("aria-label", "Tool call " + text);
      b.title = text;
      b.addEventListener("click", function () { showTool(run, t, i, b); });
      byLane[t.lane].push(b);
    });
    function marker(lane, t, cls, label, show) {
      var b = el("button", "mark " + cls);
      b.type = "button";
      b.style.left = pct(t);
      b.setAttribute("aria-label", label);
      b.title = label;
      b.addEventListener("click", function () { show(b); });
      byLane[lane].push(b);
    }
    run.messages.forEach(function (m) {
      var preview = m.text.x.slice(0, 80);
      marker(m.lane, m.t, "msg", "Message at " + fmtMs(m.t) + ": " + preview, function (b) {
        openDetails(b, "Message", [["agent", run.lanes[m.lane].name], ["at", fmtMs(m.t)], ["model", m.model]], [["Text", clipText(m.text)]]);
      });
    });
    run.marks.forEach(function (m) {
      marker(m.lane, m.t, "kind-" + m.kind, m.label + " at " + fmtMs(m.t), function (b) {
        openDetails(b, m.label, [["kind", m.kind], ["agent", run.lanes[m.lane].name], ["at", fmtMs(m.t)]], [["Detail", clipText(m.detail)]]);
      });
    });
    Object.keys(tracks).forEach(function (id) {
      var rows = (rowEnds[id] || []).length;
      var height = MARKS + Math.max(1, rows) * ROW;
      tracks[id].style.height = height + "px";
      tracks[id].parentNode.style.containIntrinsicSize = "auto " + (height + 1) + "px";
      var frag = document.createDocumentFragment();
      byLane[id].forEach(function (b) { frag.appendChild(b); });
      tracks[id].appendChild(frag);
    });
    // Arrow keys move between the items of one lane.
    inner.addEventListener("keydown", function (e) {
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      var t = e.target;
      if (!t.classList || !(t.classList.contains("bar") || t.classList.contains("mark"))) return;
      var next = e.key === "ArrowRight" ? t.nextElementSibling : t.previousElementSibling;
      while (next && next.tagName !== "BUTTON") next = e.key === "ArrowRight" ? next.nextElementSibling : next.previousElementSibling;
      if (next) { next.focus(); e.preventDefault(); }
    });
    var usageNote = usageRow(run, inner, T);
    sec.appendChild(heading(3, "Timeline"));
    sec.appendChild(box);
    if (usageNote) sec.appendChild(usageNote);

    var om = run.omitted, notes = [];
    var omittedTools = Object.keys(om.tools).map(function (k) { return om.tools[k] + " " + k; });
    if (omittedTools.length) notes.push("tool calls not drawn: " + omittedTools.join(", "));
    if (om.messages) notes.push(fmtN(om.messages) + " messages not drawn");
    if (om.marks) notes.push(fmtN(om.marks) + " other events not drawn");
    if (om.lanes) notes.push(fmtN(om.lanes) + " sub-agents share the last lane");
    if (notes.length) sec.appendChild(el("p", "omitted", "The report keeps a bounded part of a long run: " + notes.join("; ") + "."));
  }

  function showTool(run, t, i, b) {
    var lane = run.lanes[t.lane];
    var spawned = run.lanes.filter(function (l) { return l.via === i; }).map(function (l) { return l.name + " (" + l.instance + ")"; });
    var end = toolEnd(run, t);
    openDetails(b, t.name, [
      ["status", t.status + (t.reason ? " (" + t.reason + ")" : "")],
      ["duration", fmtMs(t.d !== undefined ? t.d : end - t.t0) + (t.d !== undefined ? " (reported by the backend)" : "")],
      ["started at", fmtMs(t.t0)],
      ["ended at", t.t1 === undefined ? "never (stream ended)" : fmtMs(t.t1)],
      ["agent", lane.name + (lane.instance ? " (" + lane.instance + ")" : "")],
      ["call id", t.id],
      ["updates", t.updates ? fmtN(t.updates) : ""],
      ["spawned", spawned.join(", ")],
    ], [["Arguments", clipText(t.args), "args"], ["Output", !t.out ? "(none: the call never completed)" : t.out.x === "" ? "(empty)" : clipText(t.out), "output"]]);
  }

  // Cumulative tokens as a row of the timeline, on its time axis.
  function usageRow(run, inner, T) {
    var pts = run.usageLine;
    if (!pts.length) return null;
    var last = pts[pts.length - 1];
    var max = Math.max(last[1], last[2], 1);
    var row = el("div", "tl-row usage");
    row.appendChild(el("div", "tl-label", "tokens (cumulative)"));
    var track = el("div", "tl-track");
    var NS = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 1000 100");
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Cumulative tokens over time: " + fmtN(last[1]) + " input and " + fmtN(last[2]) + " output by " + fmtMs(last[0]));
    [[1, "in"], [2, "out"]].forEach(function (s) {
      var line = document.createElementNS(NS, "polyline");
      var y = function (v) { return (98 - (v / max) * 94).toFixed(1); };
      var coords = ["0," + y(0)];
      var prev = 0;
      pts.forEach(function (p) {
        var x = ((p[0] / T) * 1000).toFixed(1);
        coords.push(x + "," + y(prev));
        coords.push(x + "," + y(p[s[0]]));
        prev = p[s[0]];
      });
      coords.push("1000," + y(prev));
      line.setAttribute("points", coords.join(" "));
      line.setAttribute("class", s[1]);
      svg.appendChild(line);
    });
    track.appendChild(svg);
    row.appendChild(track);
    inner.appendChild(row);
    var cost = last[3] ? ", cost $" + last[3].toFixed(4) : "";
    return el("p", "usage-note", "Usage over time (the tokens row, one scale up to " + fmtN(max) + "): input (blue) " + fmtN(last[1]) + ", output (purple) " + fmtN(last[2]) + cost + " by " + fmtMs(last[0]) + ".");
  }

  function renderRun(run, index, many) {
    var sec = el("section", "run");
    sec.id = "run-" + (index + 1);
    sec.setAttribute("aria-labelledby", sec.id + "-h");
    var status = run.status || "unfinished";
    sec.setAttribute("data-status", status);
    var h = heading(2, (many ? "Run " + (index + 1) + ": " : "") + run.backend + " \u00b7 " + run.run_id, sec.id + "-h");
    h.appendChild(el("span", "badge status-" + status, status));
    sec.appendChild(h);
    var dl = el("dl", "figures");
    figure(dl, "file", run.file);
    figure(dl, "mode", run.mode);
    figure(dl, "started", run.started);
    figure(dl, "duration", fmtMs(run.duration_ms !== undefined ? run.duration_ms : run.end));
    figure(dl, "exit code", run.exit_code);
    var c = run.counts;
    figure(dl, "turns", fmtN(c.turns));
    figure(dl, "messages", fmtN(c.messages));
    figure(dl, "tool calls", fmtN(c.tool_calls) + (c.tool_failures ? " (" + fmtN(c.tool_failures) + " failed)" : ""));
    figure(dl, "errors", fmtN(c.errors));
    figure(dl, "retries", fmtN(c.retries));
    if (c.unknown_events || c.unparsed_lines) figure(dl, "unknown / unparsed", fmtN(c.unknown_events) + " / " + fmtN(c.unparsed_lines));
    figure(dl, "sub-agents", run.lanes.length > 1 ? fmtN(run.lanes.length - 1) : "");
    var u = run.usage;
    if (u) {
      figure(dl, "input tokens", fmtN(u.input_tokens) + (u.cache_read_input_tokens ? " (" + fmtN(u.cache_read_input_tokens) + " cache read)" : ""));
      figure(dl, "output tokens", fmtN(u.output_tokens) + (u.reasoning_tokens ? " (" + fmtN(u.reasoning_tokens) + " reasoning)" : ""));
      if (u.cost_usd !== undefined) figure(dl, "cost", "$" + u.cost_usd.toFixed(4));
      if (u.complete === false) figure(dl, "usage note", "incomplete: the backend leaves some calls out");
    }
    figure(dl, "events", fmtN(run.events));
    if (run.pending) figure(dl, "pending input requests", fmtN(run.pending));
    figure(dl, "resume", run.resume);
    sec.appendChild(dl);

    sec.appendChild(heading(3, "Final answer"));
    if (run.answer) sec.appendChild(el("pre", "answer-text", clipText(run.answer)));
    else sec.appendChild(el("p", "none", run.status ? "No final answer." : "No final answer: the stream ended without run.finished."));

    var errors = run.marks.filter(function (m) { return m.kind === "error"; });
    if (run.error || errors.length) {
      sec.appendChild(heading(3, "Errors"));
      var ul = el("ul", "errors");
      if (run.error) {
        var li = el("li", "run-error");
        li.appendChild(el("span", "code", run.error.code));
        li.appendChild(document.createTextNode(" (run" + (run.error.retryable ? ", retryable" : "") + "): " + clipText(run.error.message)));
        ul.appendChild(li);
      }
      // The first few in view, the rest one click away.
      var more = null, list = ul;
      errors.forEach(function (m, i) {
        if (i === SHOWN_ERRORS) {
          more = el("details", "more-errors");
          more.appendChild(el("summary", null, fmtN(errors.length - SHOWN_ERRORS) + " more errors"));
          list = more.appendChild(el("ul", "errors"));
        }
        var li = el("li", "error");
        li.appendChild(el("span", "code", m.label));
        li.appendChild(document.createTextNode(" at " + fmtMs(m.t) + " (" + run.lanes[m.lane].name + "): " + clipText(m.detail)));
        list.appendChild(li);
      });
      sec.appendChild(ul);
      if (more) sec.appendChild(more);
    }
    if (run.stderr) {
      var det = el("details", "stderr");
      det.appendChild(el("summary", null, "Backend stderr (last lines)"));
      det.appendChild(el("pre", null, clipText(run.stderr)));
      sec.appendChild(det);
    }
    renderTimeline(run, sec);
    return sec;
  }

  function main() {
    var data = JSON.parse(document.getElementById("agentstream-data").textContent);
    performance.mark("agentstream-parsed");
    var root = document.getElementById("report");
    root.textContent = "";
    root.appendChild(heading(1, data.title));
    var many = data.runs.length > 1;
    if (!data.runs.length) root.appendChild(el("p", "none", "No runs in the input."));
    if (many) {
      var nav = el("nav");
      nav.setAttribute("aria-label", "Runs");
      var ul = el("ul", "picker");
      data.runs.forEach(function (run, i) {
        var li = el("li");
        var a = el("a", "status-" + (run.status || "unfinished"), (i + 1) + ". " + run.backend + " " + (run.status || "unfinished"));
        a.href = "#run-" + (i + 1);
        li.appendChild(a);
        ul.appendChild(li);
      });
      nav.appendChild(ul);
      root.appendChild(nav);
    }
    data.runs.forEach(function (run, i) { root.appendChild(renderRun(run, i, many)); });
    if (data.moreRunsCount) {
      root.appendChild(heading(2, fmtN(data.moreRunsCount) + " more runs (summary only)"));
      var table = el("table", "more-runs");
      var head = el("tr");
      ["file", "run id", "status", "events"].forEach(function (x) { head.appendChild(el("th", null, x)); });
      table.appendChild(head);
      data.moreRuns.forEach(function (r) {
        var tr = el("tr");
        [r.file, r.run_id, r.status || "unfinished", fmtN(r.events)].forEach(function (x) { tr.appendChild(el("td", null, x)); });
        table.appendChild(tr);
      });
      root.appendChild(table);
    }
  }

  try {
    main();
  } catch (err) {
    var root = document.getElementById("report");
    root.appendChild(el("p", "none", "The report could not be drawn: " + (err && err.message)));
    console.error(err);
  }
  performance.mark("agentstream-built");
  void document.body.offsetHeight;
  performance.mark("agentstream-laid-out");
  // "rendered": after the frame that shows the page has been painted.
  requestAnimationFrame(function () {
    setTimeout(function () {
      performance.mark("agentstream-rendered");
      document.documentElement.setAttribute("data-rendered", "true");
    }, 0);
  });
})();
`;
