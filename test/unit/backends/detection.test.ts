// --from auto: which backend wrote a stream, told by what it carries, and
// run.started.detection saying how sure that is.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { captureReader } from "../../helpers/capture-folders.js";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { BACKEND_NAMES, protocolOf } from "../../../src/backends/registry.js";
import { MAX_HELD_BYTES } from "../../../src/core/translation-session.js";
import { normalizeStream } from "../../../src/index.js";
import { parseJsonl, runCli, SAMPLES } from "../../helpers/cli.js";
import { toJsonl, translate } from "../../helpers/translate.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));

/** Every real or hand-made native stream in the repository, with the backend that wrote it. */
function corpus(): { file: string; producer: string }[] {
  const files: { file: string; producer: string }[] = [];
  const add = (dir: string, suffix: string, producer: (name: string) => string) => {
    for (const name of readdirSync(dir).filter((f) => f.endsWith(suffix)))
      files.push({ file: join(dir, name), producer: producer(name) });
  };
  for (const backend of ["atomic", "pi", "evosci"] as const) add(join(SAMPLES, backend), ".jsonl", () => backend);
  // Captures are named <backend>-<version> (<agent>-acp-<version>: read as acp); those of a backend not registered yet have nothing to detect.
  for (const dir of readdirSync(join(FIXTURES, "live"))) {
    const backend = captureReader(dir);
    if ((BACKEND_NAMES as readonly string[]).includes(backend))
      add(join(FIXTURES, "live", dir), ".jsonl", () => backend);
  }
  add(join(FIXTURES, "golden", "atomic"), ".native.jsonl", (name) => (name.startsWith("pi-") ? "pi" : "atomic"));
  for (const backend of BACKEND_NAMES.filter(
    (b) => b !== "atomic" && b !== "pi" && existsSync(join(FIXTURES, "golden", b)),
  )) {
    add(join(FIXTURES, "golden", backend), ".native.jsonl", () => backend);
  }
  for (const backend of BACKEND_NAMES.filter((b) => existsSync(join(EXAMPLES, b))))
    add(join(EXAMPLES, backend), ".native.jsonl", () => backend);
  return files;
}

const started = (events: CanonicalEvent[]) => events[0] as EventOf<"run.started">;
const familyOf = (backend: string) => protocolOf(backend);

describe("auto-detection by content", () => {
  const files = corpus();

  it("never names the wrong backend for a real capture: what it detects is right, what it guesses is the right family", () => {
    expect(files.length).toBeGreaterThan(100);
    const guessed: string[] = [];
    for (const { file, producer } of files) {
      const first = started(translate(readFileSync(file)).events);
      if (first.detection === "detected") expect(first.backend, file).toBe(producer);
      else {
        expect(first.detection, file).toBe("guessed");
        // An empty stream (a start-up failure) shows nothing at all: it is read as EvoSci.
        if (readFileSync(file, "utf8").trim() !== "") expect(familyOf(first.backend), file).toBe(familyOf(producer));
        guessed.push(file.slice(file.lastIndexOf("/", file.lastIndexOf("/") - 1) + 1));
      }
    }
    // Only streams that end before showing a difference are guesses: no agent_settled, no pi-only field.
    expect(guessed.sort()).toEqual([
      "atomic/atomic-badprovider.native.jsonl", // empty
      "atomic/atomic-nokey.native.jsonl", // the session header only
      "atomic/atomic-sigterm.native.jsonl", // cut before agent_end
      "atomic/badprovider.jsonl",
      "atomic/nokey.jsonl",
      "atomic/pi-0.73-error400.native.jsonl", // pi 0.73's shape: agent_end and no agent_settled
      "atomic/pi-0.73-retry-cut.native.jsonl",
      "atomic/pi-agent-end-answer.native.jsonl", // agent_start and agent_end only: both write these
      "atomic/pi-agent-end-only.native.jsonl",
      "atomic/pi-auto-compaction.native.jsonl",
      "atomic/pi-turn-end-answer.native.jsonl", // no message_end: no pi-only field
      "atomic/sigterm.jsonl",
      "codex/not-trusted.native.jsonl", // empty: Codex refused to start
      "evosci-0.3.8/error400.jsonl", // one {"type":"error","message"} line: Codex writes the same
      "evosci/error-auth.native.jsonl",
      "evosci/error-quota.native.jsonl",
      "evosci/startup-failure.native.jsonl", // empty
      "opencode-1.18.33/slow.jsonl", // empty: OpenCode dies on the signal without a line
      "opencode-1.18.34/slow.jsonl", // the same
      "pi-0.73.1/error400.jsonl",
      "pi-0.73.1/error503.jsonl",
      "pi-0.84.4/slow.jsonl", // cut mid-answer
      "pi/0.73.1-error400.jsonl",
    ]);
  });

  it("detects pi 0.73, 0.84 and 1.6 and Atomic from their own fields", () => {
    const backendOf = (path: string) => started(translate(readFileSync(path)).events);
    expect(backendOf(join(SAMPLES, "pi/0.73.1-text.jsonl"))).toMatchObject({ backend: "pi", detection: "detected" }); // message_update.message
    expect(backendOf(join(SAMPLES, "pi/0.84.2-text.jsonl"))).toMatchObject({ backend: "pi", detection: "detected" }); // agent_end.willRetry
    expect(backendOf(join(SAMPLES, "pi/1.6.0-tool.jsonl"))).toMatchObject({ backend: "pi", detection: "detected" }); // durationMs
    expect(backendOf(join(SAMPLES, "atomic/text.jsonl"))).toMatchObject({ backend: "atomic", detection: "detected" }); // agent_settled, no willRetry
    expect(backendOf(join(SAMPLES, "atomic/abort.jsonl"))).toMatchObject({ backend: "atomic", detection: "detected" }); // model_changed
  });

  it("translates exactly as --from does once it knows, but for run.started.detection", () => {
    for (const { file } of files) {
      const native = readFileSync(file);
      const auto = translate(native).events;
      const given = translate(native, { from: auto[0]!.backend }).events;
      expect(started(given).detection).toBe("given");
      expect(toJsonl(given.slice(1)), file).toBe(toJsonl(auto.slice(1)));
    }
  });

  it("holds at most MAX_HELD_BYTES waiting for the content to tell: then it guesses the protocol family", () => {
    // An Atomic-family stream with nothing but tool calls that tell nobody apart, past the bound, then Atomic's own agent_settled.
    const call = (i: number) =>
      `{"type":"tool_execution_start","toolCallId":"c${i}","toolName":"bash","args":{"pad":"${"x".repeat(1000)}"}}\n{"type":"tool_execution_end","toolCallId":"c${i}","toolName":"bash","result":{"content":[]},"isError":false}\n`;
    let body =
      '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}\n{"type":"agent_start"}\n';
    for (let i = 0; body.length < MAX_HELD_BYTES + 100_000; i++) body += call(i);
    body += '{"type":"agent_end","messages":[]}\n{"type":"agent_settled"}\n';
    const { events } = translate(body);
    expect(started(events)).toMatchObject({ backend: "atomic", detection: "guessed" });
    expect(events.filter((e) => e.type === "tool.completed").length).toBeGreaterThan(500);
    // The same stream within the bound is detected.
    expect(
      started(
        translate(
          body.slice(0, 5000).replace(/\n[^\n]*$/, "\n") +
            '{"type":"agent_end","messages":[]}\n{"type":"agent_settled"}\n',
        ).events,
      ),
    ).toMatchObject({ backend: "atomic", detection: "detected" });
  });

  // Issue 25: a type other formats write too decides nothing by itself.
  const codexAfterError = [
    '{"type":"error","message":"Missing environment variable: `FAKE_API_KEY`."}',
    '{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}',
    '{"type":"turn.started"}',
    '{"type":"turn.failed","error":{"message":"Missing environment variable: `FAKE_API_KEY`."}}',
  ].join("\n");
  // OpenCode's `run --format json`-like lines: a "text" with no string `content`, types no backend here writes.
  // A format no backend writes (OpenCode's step_start/text/step_finish, once the example here, is now a backend's).
  const unknownFormat = [
    '{"type":"frame_open","at":1,"frame":{"kind":"open"}}',
    '{"type":"text","at":2,"frame":{"kind":"text","text":"hi"}}',
    '{"type":"frame_close","at":3,"frame":{"kind":"close"}}',
  ].join("\n");

  it("a Codex stream that opens with an error line is Codex, detected", () => {
    const { events, outcome } = translate(codexAfterError);
    expect(started(events)).toMatchObject({ backend: "codex", detection: "detected" });
    expect(outcome).toMatchObject({ status: "failed" });
  });

  it("a stream of no known protocol is a guess, not detected as EvoScientist", () => {
    expect(started(translate(unknownFormat).events)).toMatchObject({ backend: "evosci", detection: "guessed" });
    expect(started(translate('{"type":"error","message":"boom"}').events)).toMatchObject({
      backend: "evosci",
      detection: "guessed",
    });
    // EvoScientist's own text and done still tell it.
    expect(
      started(translate('{"type":"text","content":"hi"}\n{"type":"done","content":"hi","response":"hi"}').events),
    ).toMatchObject({ backend: "evosci", detection: "detected" });
  });

  it("normalize names what it saw when it could only guess, and --from codex hears no EvoScientist hint", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-detect-"));
    try {
      writeFileSync(join(dir, "codex.jsonl"), codexAfterError);
      writeFileSync(join(dir, "error.jsonl"), '{"type":"error","message":"boom"}\n');
      const given = await runCli(["normalize", "--from", "codex", join(dir, "codex.jsonl")]);
      expect(given.stderr).not.toMatch(/EvoScientist/);
      const auto = await runCli(["normalize", join(dir, "error.jsonl")]);
      expect(auto.stderr).toMatch(/read as evosci \(a guess\)/);
      expect(auto.stderr).toMatch(/hint: no event showed a protocol's own markers \(types seen: "error"\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Issue 37: other projects' recordings of failed runs, cut down to their last lines.
  const copilotFailed = [
    '{"type":"session.error","data":{"errorType":"query","message":"CAPIError: 400 The requested model is not supported."},"id":"e1","timestamp":"2026-12-05T01:00:01.000Z"}',
    '{"type":"result","timestamp":"2026-12-05T01:00:01.200Z","sessionId":"6f0e2d4c-1b3a-4c5d-8e7f-9a0b1c2d3e4f","exitCode":1,"usage":{"premiumRequests":0}}',
  ].join("\n");

  it("a lone terminal line of its own shape tells its protocol: each result, session.error, OpenCode's error object", () => {
    const lone: Array<[string, string]> = [
      [copilotFailed, "copilot"],
      [copilotFailed.split("\n")[0]!, "copilot"],
      [copilotFailed.split("\n")[1]!, "copilot"],
      ['{"type":"result","status":"error","error":"boom"}', "gemini"],
      ['{"type":"result","status":"success","stats":{}}', "gemini"],
      ['{"type":"error","severity":"error","message":"Maximum session turns exceeded"}', "gemini"],
      ['{"type":"result","subtype":"error_during_execution","is_error":true}', "claude"],
      ['{"type":"error","error":{"message":"model unavailable"}}', "opencode"],
      ['{"type":"done","reason":"idle","rejected":[]}', "opencode"],
      [
        '{"type":"abort","data":{"reason":"user_initiated"},"id":"a1","timestamp":"2026-12-05T01:00:00.000Z"}',
        "copilot",
      ],
    ];
    for (const [stream, backend] of lone)
      expect(started(translate(stream).events), stream).toMatchObject({ backend, detection: "detected" });
    // A result of none of these shapes decides nothing; EvoScientist's done is still its own.
    expect(started(translate('{"type":"result"}').events)).toMatchObject({ detection: "guessed" });
    expect(started(translate('{"type":"done","response":"hi","content":"hi"}').events)).toMatchObject({
      backend: "evosci",
      detection: "detected",
    });
    // An OpenCode done line alone is no success read as EvoScientist's: OpenCode's, no step made.
    expect(translate('{"type":"done","reason":"idle","rejected":[]}').outcome).toMatchObject({ status: "failed" });
  });

  it("normalize reads a failed Copilot CLI run as Copilot's, with no 'not a native stream' hint, and its 400 as the provider's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-detect-"));
    try {
      writeFileSync(join(dir, "copilot.jsonl"), `${copilotFailed}\n`);
      for (const from of ["auto", "copilot"]) {
        const out = await runCli(["normalize", "--from", from, join(dir, "copilot.jsonl")]);
        expect(out.code).toBe(1);
        expect(out.stderr).not.toMatch(/not a native stream/);
        const events = parseJsonl(out.stdout);
        expect(events[0]).toMatchObject({ backend: "copilot", detection: from === "auto" ? "detected" : "given" });
        expect(events.at(-1)).toMatchObject({
          type: "run.finished",
          status: "failed",
          error: { code: "provider", message: "CAPIError: 400 The requested model is not supported." },
        });
        expect(events.find((e) => e.type === "error")).toMatchObject({ code: "provider", http_status: 400 });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the library with no `from` names pi", async () => {
    const events: CanonicalEvent[] = [];
    for await (const event of normalizeStream(Readable.from([readFileSync(join(EXAMPLES, "pi/tool.native.jsonl"))])))
      events.push(event);
    expect(started(events)).toMatchObject({ backend: "pi", detection: "detected" });
    expect(new Set(events.map((e) => e.backend))).toEqual(new Set(["pi"]));
  });

  it("`normalize examples/pi/tool.native.jsonl` names pi; --from says given", async () => {
    const auto = await runCli(["normalize", join(EXAMPLES, "pi/tool.native.jsonl")]);
    expect(parseJsonl(auto.stdout)[0]).toMatchObject({ type: "run.started", backend: "pi", detection: "detected" });
    const given = await runCli(["normalize", "--from", "atomic", join(EXAMPLES, "pi/tool.native.jsonl")]);
    expect(parseJsonl(given.stdout)[0]).toMatchObject({ type: "run.started", backend: "atomic", detection: "given" });
  });
});
