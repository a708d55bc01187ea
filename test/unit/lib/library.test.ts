import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { normalizeStream, readCanonicalStream, steppingClock, type CanonicalEvent } from "../../../src/index.js";
import { toJsonl, translate } from "../../helpers/translate.js";

const NATIVE = [
  '{"type": "text", "content": "Hello"}',
  '{"type": "tool_call", "name": "ls", "args": {}, "id": "t1"}',
  '{"type": "tool_result", "name": "ls", "content": "a", "success": true, "id": "t1"}',
  '{"type": "text", "content": "Bye"}',
  '{"type": "done", "content": "HelloBye", "response": "HelloBye"}',
].join("\n");

async function collect(
  iter: AsyncGenerator<CanonicalEvent, unknown>,
): Promise<{ events: CanonicalEvent[]; returned: unknown }> {
  const events: CanonicalEvent[] = [];
  for (;;) {
    const next = await iter.next();
    if (next.done) return { events, returned: next.value };
    events.push(next.value);
  }
}

describe("normalizeStream (library)", () => {
  it("gives the same events as the CLI's translation, and the outcome", async () => {
    const chunks = [NATIVE.slice(0, 30), NATIVE.slice(30, 31), NATIVE.slice(31)].map((s) => Buffer.from(s));
    const { events, returned } = await collect(
      normalizeStream(Readable.from(chunks), { runId: "run-test", clock: steppingClock(), inputName: "-" }),
    );
    const expected = translate(NATIVE);
    expect(toJsonl(events).replace(/"agentstream_version":"[^"]*"/, "")).toBe(
      toJsonl(expected.events).replace(/"agentstream_version":"[^"]*"/, ""),
    );
    expect(returned).toMatchObject({ status: "succeeded", exitCode: 0, resultText: "Bye" });
  });

  it("yields events before the input ends", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slowInput() {
      yield Buffer.from('{"type": "text", "content": "first"}\n');
      await gate;
      yield Buffer.from('{"type": "done", "content": "", "response": ""}\n');
    }
    const iter = normalizeStream(slowInput(), { from: "evosci" });
    expect((await iter.next()).value).toMatchObject({ type: "run.started" });
    expect((await iter.next()).value).toMatchObject({ type: "turn.started", turn: 1 });
    expect((await iter.next()).value).toMatchObject({ type: "message.delta", text: "first" });
    release();
    const rest = await collect(iter);
    expect(rest.events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  it("honours the end of a recording without a terminal event", async () => {
    const { events } = await collect(
      normalizeStream(['{"type": "text", "content": "cut"}\n'], {
        from: "evosci",
        end: { backendExit: { code: null, signal: "SIGKILL" } },
      }),
    );
    expect(events.at(-1)).toMatchObject({ status: "failed", exit_code: 76, error: { code: "backend_crashed" } });
  });
});

describe("readCanonicalStream (library)", () => {
  const example = readFileSync(new URL("../../../examples/pi/tool.canonical.jsonl", import.meta.url), "utf8");

  it("reads agentstream's output back as events", async () => {
    const events: CanonicalEvent[] = [];
    for await (const event of readCanonicalStream(Readable.from([example.slice(0, 100), example.slice(100)])))
      events.push(event);
    expect(`${events.map((e) => JSON.stringify(e)).join("\n")}\n`).toBe(example);
  });

  it("yields every event before a line that is not JSON, then fails naming that line", async () => {
    const lines = example.trimEnd().split("\n");
    // Three valid lines, a blank one (still counted), then the bad line 5, then more valid ones.
    const broken = [...lines.slice(0, 3), "", "not json", ...lines.slice(3)].join("\n");
    const events: CanonicalEvent[] = [];
    const reading = (async () => {
      for await (const event of readCanonicalStream(Readable.from([broken.slice(0, 50), broken.slice(50)])))
        events.push(event);
    })();
    await expect(reading).rejects.toThrow(/line 5: not a JSON object: not json/);
    await expect(reading).rejects.toMatchObject({ name: "CanonicalLineError", line: 5 });
    expect(events.map((e) => JSON.stringify(e))).toEqual(lines.slice(0, 3));
  });

  it("fails on a JSON line that is not an object, and on a bad last line without a newline", async () => {
    const read = async (text: string) => {
      for await (const _ of readCanonicalStream(Readable.from([text]))) void _;
    };
    await expect(read(`${example}[1,2]\n`)).rejects.toMatchObject({ line: example.trimEnd().split("\n").length + 1 });
    await expect(read(`${example}{"type":`)).rejects.toMatchObject({ line: example.trimEnd().split("\n").length + 1 });
  });
});

describe("the library calls of docs/library.md, with defaults", () => {
  const native = () => Readable.from([Buffer.from(NATIVE)]);

  it("normalizeStream(readable)", async () => {
    const { events } = await collect(normalizeStream(native()));
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded", exit_code: 0 });
  });

  it("readCanonicalStream(readable)", async () => {
    const jsonl = toJsonl(translate(NATIVE).events);
    const events: CanonicalEvent[] = [];
    for await (const event of readCanonicalStream(Readable.from([jsonl]))) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run.finished" });
  });

  it("verifyStream(readable), without options: counts lines and problems", async () => {
    // The built library: its default validator is compiled at build time.
    const { verifyStream } = (await import(
      new URL("../../../dist/index.js", import.meta.url).href
    )) as typeof import("../../../src/index.js");
    const jsonl = toJsonl(translate(NATIVE).events);
    const lines = jsonl.trimEnd().split("\n").length;
    await expect(verifyStream(Readable.from([jsonl]))).resolves.toEqual({ lines, problems: 0, looksNative: false });
    const summary = await verifyStream(Readable.from([`${jsonl}not json\n`]), {});
    expect(summary.problems).toBeGreaterThan(0);
  });
});
