// The library and the CLI give the same events, with the same secrets hidden,
// for the same input: normalizeStream() against `agentstream normalize` over
// every backend's example stream, and run() against `agentstream run`, each
// with a secret in the environment and a token-shaped string in the stream.
import { createReadStream, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { normalizeStream, run } from "../../../src/index.js";
import type { BackendName } from "../../../src/backends/registry.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { Scratch, STAND_IN } from "../../helpers/stand-in.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));
const SECRET = "Zq9-parity-secret-Xy7";
const TOKEN = "sk-abcdefghijklmnopqrstuvwx";
const scratch = new Scratch();
afterAll(() => scratch.remove());
afterEach(() => {
  delete process.env.PARITY_API_KEY;
});

/** What does not depend on when or as which run it happened. */
function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (typeof value !== "object" || value === null) return value;
  const kept = Object.entries(value).filter(([key]) => !["ts", "elapsed_ms", "run_id", "duration_ms"].includes(key));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutClock(item)]));
}

async function collect(events: AsyncIterable<CanonicalEvent>): Promise<CanonicalEvent[]> {
  const out: CanonicalEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

interface Example {
  native: string;
  options: {
    from: BackendName;
    end?: { backendExit?: { code: number | null; signal: string | null }; stderrTail?: string[] };
  };
}

function examples(): Example[] {
  return readdirSync(EXAMPLES).flatMap((backend) => {
    const dir = join(EXAMPLES, backend);
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith(".native.jsonl"));
    } catch {
      return [];
    }
    return names.map((name) => ({
      native: join(dir, name),
      options: JSON.parse(readFileSync(join(dir, name.replace(".native.jsonl", ".options.json")), "utf8")),
    }));
  });
}

describe("library and CLI parity", () => {
  it.each(examples().map((e) => [e.native.slice(EXAMPLES.length), e] as const))(
    "normalizeStream() and normalize give the same events and redaction: %s",
    async (name, example) => {
      // A line the translator keeps whole (backend.event) quoting both secrets, before the stream's own lines.
      const input = join(scratch.dir, name.replaceAll("/", "-"));
      const extra = `${JSON.stringify({ type: "x_parity_note", note: `${SECRET} and ${TOKEN}`, [SECRET]: 1 })}\n`;
      writeFileSync(input, readFileSync(example.native, "utf8") + extra);
      const stderr = join(scratch.dir, `${name.replaceAll("/", "-")}.stderr`);
      writeFileSync(stderr, [...(example.options.end?.stderrTail ?? []), `echo ${SECRET}`].join("\n"));
      const exit = example.options.end?.backendExit;
      const exitArg = exit ? (exit.code !== null ? String(exit.code) : exit.signal!) : undefined;
      const cli = await runCli(
        [
          "normalize",
          "--from",
          example.options.from ?? "auto",
          "--stderr",
          stderr,
          ...(exitArg ? ["--backend-exit", exitArg] : []),
          input,
        ],
        { env: { PARITY_API_KEY: SECRET } },
      );
      process.env.PARITY_API_KEY = SECRET;
      const tail = readFileSync(stderr, "utf8").split("\n");
      const library = await collect(
        normalizeStream(createReadStream(input), {
          from: example.options.from ?? "auto",
          inputName: input,
          end: { backendExit: exit ? (exit as never) : null, stderrTail: tail },
        }),
      );
      const fromCli = parseJsonl(cli.stdout);
      expect(withoutClock(library)).toEqual(withoutClock(fromCli));
      const text = JSON.stringify(library);
      expect(text).toContain("[redacted]");
      expect(text).not.toMatch(/Zq9|sk-abcdef/);
    },
  );

  it("run() and run give the same events and redaction (a secret in the environment and in --backend-arg)", async () => {
    const transcript = join(scratch.dir, "parity-run.jsonl");
    writeFileSync(
      transcript,
      [
        { type: "tool_call", name: "http", args: { token: SECRET, other: "flag-value-Zq9x" }, id: "t1" },
        { type: "tool_result", name: "http", content: `got ${TOKEN}`, success: true, id: "t1" },
        { type: "done", response: `answer with ${SECRET}` },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(""),
    );
    const env = { STANDIN_TRANSCRIPT: transcript, PARITY_API_KEY: SECRET };
    const args = ["--api-key", "flag-value-Zq9x"];
    const cli = await runCli(
      ["run", "--backend", "evosci", "--bin", STAND_IN, ...args.map((a) => `--backend-arg=${a}`), "--", "same prompt"],
      { env },
    );
    const library = await collect(
      run({
        backend: "evosci",
        bin: STAND_IN,
        prompt: "same prompt",
        backendArgs: args,
        env: { ...process.env, ...env },
      }),
    );
    expect(withoutClock(library)).toEqual(withoutClock(parseJsonl(cli.stdout)));
    expect(JSON.stringify(library)).not.toMatch(/Zq9|sk-abcdef/);
  });
});
