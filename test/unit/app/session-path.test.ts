// Every command takes one path down (docs/development.md, the source map): its request, planned by
// prepareRun (or prepareNormalize), started by startRun (or startNormalize), the session opening the
// sinks the request's outputs ask for. A command of its own (compare, which runs many) takes the same
// path: this test is one, with a host of its own.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { prepareRun } from "../../../src/app/agent-run.js";
import { requestFromLibrary } from "../../../src/app/request.js";
import { startRun, type RunSessionHost } from "../../../src/app/session.js";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { steppingClock } from "../../../src/core/clock.js";
import { UsageError } from "../../../src/core/errors.js";

const REPLAY = fileURLToPath(new URL("../../../examples/replay-backend.mjs", import.meta.url));
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A host as a third command would give it: its events yielded (no stdout), its outputs named its own way. */
function ownHost(said: string[]): RunSessionHost {
  return {
    runId: "run-own",
    clock: steppingClock(),
    sinks: [],
    warn: (line) => said.push(line),
    outputs: {
      optionName: (key) => `cell ${key}`,
      notice: (message) => said.push(message),
      exportProblem: (line) => said.push(line),
    },
    onStderr: () => {},
    stderrShown: { needsDrain: false, drained: () => Promise.resolve() },
    onStatus: () => {},
    onTranslatorBug: (message) => said.push(message),
    onWarning: (text) => said.push(text),
    processSignals: false,
  };
}

function requestFor(atif: string) {
  const env = { ...process.env, REPLAY_SPEED: "1000" };
  return requestFromLibrary("run", { backend: "evosci", bin: REPLAY, prompt: "hi", env, atif }).request;
}

describe("request, plan, session: the one path a command takes", () => {
  it("runs the planned backend and writes the output its request asks for, opened by the session", async () => {
    const folder = mkdtempSync(join(tmpdir(), "agentstream-path-"));
    folders.push(folder);
    const atif = join(folder, "cell.atif.json");
    const spec = await prepareRun(requestFor(atif), () => "hi");
    const said: string[] = [];
    const session = await startRun(spec, ownHost(said));
    const events: CanonicalEvent[] = [];
    let next = await session.events.next();
    for (; !next.done; next = await session.events.next()) events.push(next.value);
    await session.end();
    expect(next.value.kind).toBe("finished");
    expect(events[0]).toMatchObject({ type: "run.started", run_id: "run-own" });
    expect(events.at(-1)).toMatchObject({ type: "run.finished" });
    // The ATIF document of the run, written when the session ended.
    expect(JSON.parse(readFileSync(atif, "utf8"))).toMatchObject({ session_id: expect.any(String) });
    expect(said).toEqual([]);
  });

  it("refuses an output that cannot be written before the backend starts, naming it as the host does", async () => {
    const folder = mkdtempSync(join(tmpdir(), "agentstream-path-"));
    folders.push(folder);
    const atif = join(folder, "missing", "cell.atif.json");
    const spec = await prepareRun(requestFor(atif), () => "hi");
    const started = startRun(spec, ownHost([]));
    await expect(started).rejects.toThrow(UsageError);
    await expect(started).rejects.toThrow(/cell atif/);
    expect(existsSync(join(folder, "missing"))).toBe(false);
  });
});
