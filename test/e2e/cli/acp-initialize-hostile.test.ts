// Whatever an ACP agent says in its initialize response (a protocolVersion of -1, 1.5, "1" or 1e400, an
// agentInfo, capabilities or auth methods of any shape), the stream made of it is valid: what session.started
// cannot hold is left out of it, and the response kept as data. Before, protocolVersion -1 or 1.5 made
// session.started fail the schema ("bug: event seq 2"), and the stream fail `verify` (issue 45).
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzParameters, fuzzTimeoutMs } from "../../helpers/fuzz/settings.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { translate } from "../../helpers/translate.js";
import { verifyEvents, verifyLines } from "../../helpers/verify.js";

const FAKE_AGENT = fileURLToPath(new URL("../../fixtures/acp/fake-agent.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "agentstream-acp-initialize-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An initialize response whose protocolVersion is this JSON text, then a session, a word and the prompt's end. */
function recording(
  version: string,
  rest: Record<string, unknown> = { agentInfo: { name: "x", version: "1" } },
  session: Record<string, unknown> = { sessionId: "s1" },
): string {
  const others = JSON.stringify(rest).slice(1, -1);
  return [
    `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":${version}${others === "" ? "" : `,${others}`}}}`,
    JSON.stringify({ jsonrpc: "2.0", id: 1, result: session }),
    '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi."}}}}',
    '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}',
    "",
  ].join("\n");
}

/** Versions the schema cannot hold (session.started leaves them out), and ones it can. */
const HOSTILE = ["-1", "1.5", '"1"', "1e400", "-1e400", "1e300", "9007199254740993", "null", "true", "[1]", '{"v":1}'];
const VALID: [string, number][] = [
  ["0", 0],
  ["1", 1],
  ["-0", 0],
  ["65535", 65535],
];

function sessionStarted(events: Record<string, unknown>[]): Record<string, unknown> {
  return events.find((e) => e.type === "session.started")!;
}

describe("an ACP agent's protocolVersion", () => {
  it("normalize --from acp: one the schema cannot hold is left out, the response kept as data, the stream valid", async () => {
    for (const version of HOSTILE) {
      const file = join(dir, "hostile.jsonl");
      writeFileSync(file, recording(version));
      const run = await runCli(["normalize", "--from", "acp", file]);
      expect(run.stderr, version).not.toContain("bug:");
      expect(run.code, version).toBe(0);
      const events = parseJsonl(run.stdout);
      expect(verifyLines(run.stdout.split("\n").filter(Boolean)), version).toEqual([]);
      expect(sessionStarted(events), version).toMatchObject({ session_id: "s1", agent_info: { name: "x" } });
      expect(sessionStarted(events), version).not.toHaveProperty("protocol_version");
      expect(
        events.filter((e) => e.type === "backend.event"),
        version,
      ).toHaveLength(1);
      expect(events.at(-1), version).toMatchObject({ status: "succeeded", result: { text: "Hi." } });
    }
  });

  it("one it can hold is said in session.started, and nothing else is added", () => {
    for (const [version, said] of VALID) {
      const { events } = translate(recording(version), { from: "acp" });
      expect(sessionStarted(events as never)).toMatchObject({ protocol_version: said });
      expect(events.filter((e) => e.type === "backend.event")).toEqual([]);
    }
  });

  for (const version of ["-1", "1.5", '"1"'])
    it(`run: an agent that states ${version} runs as any other, its stream valid`, async () => {
      const run = await runCli(["run", "--backend", "acp", "--bin", FAKE_AGENT, "--", "text"], {
        env: { FAKE_ACP_PROTOCOL_VERSION: version },
      });
      expect(run.stderr).not.toContain("bug:");
      expect(run.code).toBe(0);
      expect(verifyLines(run.stdout.split("\n").filter(Boolean))).toEqual([]);
      const events = parseJsonl(run.stdout);
      expect(sessionStarted(events)).toMatchObject({ agent_info: { name: "fake-agent" } });
      expect(sessionStarted(events)).not.toHaveProperty("protocol_version");
    });
});

const json = fc.jsonValue({ maxDepth: 3 });
/** A member that is absent, any JSON, or (where given) the shape it should have. */
const member = (shaped?: fc.Arbitrary<unknown>) =>
  fc.option(shaped ? fc.oneof(json, shaped) : json, { nil: undefined });
const versionText = fc.oneof(
  fc.constantFrom(...HOSTILE, ...VALID.map(([text]) => text)),
  fc.integer().map(String),
  fc.double().map((n) => JSON.stringify(n)),
  json.map((v) => JSON.stringify(v)),
);
const agentInfo = fc.record(
  { name: member(fc.string()), title: member(fc.string()), version: member(fc.string()) },
  { requiredKeys: [] },
);
const authMethod = fc.record(
  { id: member(fc.string()), name: member(fc.string()), type: member(fc.constantFrom("env_var", "agent")), vars: json },
  { requiredKeys: [] },
);
const initializeRest = fc.record(
  {
    agentInfo: member(agentInfo),
    agentCapabilities: member(fc.record({ loadSession: json }, { requiredKeys: [] })),
    authMethods: member(fc.array(authMethod, { maxLength: 3 })),
  },
  { requiredKeys: [] },
);

/** The session/new answer: its id and its model, told either way (models, configOptions). */
const sessionNew = fc.record(
  {
    sessionId: member(fc.string()),
    models: member(fc.record({ currentModelId: json, availableModels: json }, { requiredKeys: [] })),
    configOptions: member(
      fc.array(
        fc.record({ id: json, category: member(fc.constant("model")), currentValue: json }, { requiredKeys: [] }),
        {
          maxLength: 2,
        },
      ),
    ),
  },
  { requiredKeys: [] },
);

describe("any initialize response", () => {
  it(
    "and session/new answer give a stream that verify accepts",
    () => {
      fc.assert(
        fc.property(versionText, initializeRest, sessionNew, fc.boolean(), (version, rest, session, authFirst) => {
          const defined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
          const native = recording(version, defined(rest), { sessionId: "s1", ...defined(session) });
          // An agent that demands a login first: its auth methods are named in the run's error.
          const text = authFirst
            ? native.replace(
                '{"jsonrpc":"2.0","id":1,"result"',
                '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Authentication required"}}\n{"jsonrpc":"2.0","id":3,"result"',
              )
            : native;
          const bugs: string[] = [];
          const { events } = translate(text, { from: "acp", onTranslatorBug: (m) => bugs.push(m) });
          expect(bugs).toEqual([]);
          expect(verifyEvents(events)).toEqual([]);
        }),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );
});
