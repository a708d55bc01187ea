// A long canonical run for the HTML report's test and bench: `events` lines
// (exactly) of turns, messages, tool calls (some failed, some cancelled, some
// in parallel), sub-agents with their own calls, usage, errors and retries,
// ending in run.finished with counts that match. A valid canonical stream.

/** @param {number} events @param {{ runId?: string }} [options] @returns {object[]} */
export function longRun(events, options = {}) {
  const runId = options.runId ?? "run-long";
  const out = [];
  let seq = 0;
  let t = 0;
  const counts = {
    turns: 0,
    messages: 0,
    tool_calls: 0,
    tool_failures: 0,
    errors: 0,
    retries: 0,
    unknown_events: 0,
    unparsed_lines: 0,
  };
  const usage = { input_tokens: 0, output_tokens: 0, cost_usd: 0 };
  const base = Date.parse("2026-01-01T00:00:00.000Z");
  const emit = (type, payload, agent) => {
    seq++;
    t += 1 + (seq % 7);
    out.push({
      v: 1,
      seq,
      ts: new Date(base + t).toISOString(),
      elapsed_ms: t,
      run_id: runId,
      backend: "pi",
      type,
      ...(agent ? { agent } : {}),
      ...payload,
    });
  };
  emit("run.started", { agentstream_version: "0.0.0-bench", mode: "normalize", input: "long.jsonl" });
  let turn = 0;
  let call = 0;
  let sub = 0;
  // Each step writes at most 16 lines; stop while there is room for the last turn.completed and run.finished.
  while (out.length + 18 <= events) {
    turn++;
    counts.turns++;
    emit("turn.started", { turn });
    const message = `msg-${turn}`;
    emit("message.completed", { message_id: message, text: `Step ${turn}: looking at part ${turn % 13} of the task.` });
    counts.messages++;
    const u = { input_tokens: 1200 + (turn % 50) * 10, output_tokens: 80 + (turn % 9) };
    emit("usage", { scope: "message", ...u, cost_usd: 0.001 });
    usage.input_tokens += u.input_tokens;
    usage.output_tokens += u.output_tokens;
    usage.cost_usd += 0.001;
    // Two calls in parallel.
    const ids = [`call-${++call}`, `call-${++call}`];
    for (const id of ids)
      emit("tool.started", {
        tool_call_id: id,
        name: call % 3 ? "bash" : "read",
        args: { command: `ls part-${call}`, n: call },
      });
    counts.tool_calls += 2;
    emit("tool.updated", { tool_call_id: ids[0], name: "bash", output: "partial" });
    ids.forEach((id, i) => {
      const status = turn % 17 === 0 && i === 0 ? "failed" : turn % 29 === 0 && i === 1 ? "cancelled" : "succeeded";
      if (status === "failed") counts.tool_failures++;
      emit("tool.completed", {
        tool_call_id: id,
        name: call % 3 ? "bash" : "read",
        status,
        output: `output of ${id}\n`.repeat(3),
        duration_ms: 3 + (turn % 5),
      });
    });
    if (turn % 10 === 0) {
      // A sub-agent spawned by a task call, with one call of its own.
      const task = `call-${++call}`;
      const agent = { name: "helper", instance_id: `sub-${++sub}` };
      emit("tool.started", { tool_call_id: task, name: "task", args: { description: `sub-task ${sub}` } });
      emit("subagent.started", { name: agent.name, instance_id: agent.instance_id, tool_call_id: task });
      const inner = `call-${++call}`;
      emit("tool.started", { tool_call_id: inner, name: "grep", args: { pattern: "x" } }, agent);
      emit("tool.completed", { tool_call_id: inner, name: "grep", status: "succeeded", output: "found" }, agent);
      emit("subagent.completed", { name: agent.name, instance_id: agent.instance_id });
      emit("tool.completed", { tool_call_id: task, name: "task", status: "succeeded", output: "done" });
      counts.tool_calls += 2;
    } else if (turn % 25 === 7) {
      emit("error", { code: "overloaded", message: "Error code: 529 - Overloaded", retryable: true, http_status: 529 });
      emit("retry.started", { scope: "request", attempt: 1, max_attempts: 3, delay_ms: 1000, error: "overloaded" });
      emit("retry.completed", { scope: "request", success: true, attempt: 1 });
      counts.errors++;
      counts.retries++;
    }
    emit("turn.completed", { turn, stop_reason: "toolUse" });
  }
  // Fill up to the exact count with messages in a last turn.
  turn++;
  counts.turns++;
  emit("turn.started", { turn });
  while (out.length + 2 < events) {
    emit("message.completed", { message_id: `msg-end-${out.length}`, text: "Still working." });
    counts.messages++;
  }
  emit("turn.completed", { turn, stop_reason: "stop" });
  usage.cost_usd = Math.round(usage.cost_usd * 1e6) / 1e6;
  emit("run.finished", {
    status: "succeeded",
    exit_code: 0,
    backend_exit: null,
    duration_ms: t + 1,
    result: { text: "All parts done." },
    usage,
    counts,
  });
  return out;
}
