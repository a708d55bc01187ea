// Every backend as each transport drives it (the registry's, and over ACP where it speaks it): an option it
// lacks is refused in words that are true of it. A backend over ACP is named so, and never among those that have
// the option: before, `--backend opencode --transport acp --model M` was refused with "OpenCode has no model
// flag (... and OpenCode ... have it)" (issue 45).
import { describe, expect, it } from "vitest";
import { cliNaming, libraryNaming } from "../../../src/app/options.js";
import type { BackendDefinition } from "../../../src/backends/definition.js";
import { TRANSPORTS } from "../../../src/backends/definition.js";
import { reachBackend } from "../../../src/backends/native-input.js";
import { withTransport } from "../../../src/backends/acp/over-acp.js";
import { refuseLacking } from "../../../src/backends/portable-options.js";
import { BACKENDS, backendNamed } from "../../../src/backends/registry.js";
import {
  APPROVALS_MODES,
  PORTABLE_OPTION_NAMES,
  type PortableOption,
  type PortableValues,
} from "../../../src/backends/request.js";
import { reaches, supportOf } from "../../../src/backends/support.js";
import { OptionError } from "../../../src/core/errors.js";

/** A value of each option, as a backend's entry is given it (each choice of a choice apart, below). */
const SAMPLE: Omit<PortableValues, "approvals"> = {
  model: "model-1",
  provider: "provider-1",
  workdir: "/workdir-1",
  autoMode: false,
  allowTools: ["some_tool"],
  denyTools: ["some_tool"],
  approveWith: "./approve.sh",
  questions: "pending",
  resume: "session-1",
  maxTurns: 1,
  maxTokens: 1,
  maxCostUsd: 1,
  usageFile: "/run/usage.json",
  outputSchema: {
    schema: { type: "object" },
    text: '{"type":"object"}',
    strictDraft07: true,
    check: async () => ({ valid: true }),
  },
  onPermissionRequest: () => "allow",
};

/** Every backend as every transport it takes drives it. */
const DRIVEN: { transport: string; backend: BackendDefinition }[] = BACKENDS.flatMap((registered) =>
  TRANSPORTS.flatMap((transport) => {
    try {
      return [{ transport, backend: withTransport(registered, transport, BACKENDS) }];
    } catch {
      return [];
    }
  }),
);

/** Each option asked alone, a choice once per choice: the option and the request. */
const ASKED: [PortableOption, Partial<PortableValues>][] = PORTABLE_OPTION_NAMES.flatMap((option) =>
  option === "approvals"
    ? APPROVALS_MODES.map((mode): [PortableOption, Partial<PortableValues>] => [option, { approvals: mode }])
    : [[option, { [option]: SAMPLE[option] }] as [PortableOption, Partial<PortableValues>]],
);

/** Whether the backend has the option as asked. */
const has = (backend: BackendDefinition, option: PortableOption, asked: Partial<PortableValues>): boolean => {
  const support = supportOf(backend.supports, option, asked[option]);
  return support !== undefined && reaches(support);
};

/** The refusal of this request, as the CLI words it (undefined where the backend has it). */
function refusal(backend: BackendDefinition, asked: Partial<PortableValues>): string | undefined {
  try {
    refuseLacking(backend, asked);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(OptionError);
    return (err as OptionError).wordedAs(cliNaming).message;
  }
}

const byDisplayName = (name: string): BackendDefinition => {
  const found = BACKENDS.find((b) => b.displayName === name);
  if (!found) throw new Error(`no backend is named ${name}`);
  return found;
};

describe("refusals, every backend × transport × option", () => {
  it("covers the ACP variants", () => {
    expect(DRIVEN.filter((d) => d.transport === "acp" && d.backend !== backendNamed(d.backend.name))).not.toEqual([]);
  });

  it("name the backend over ACP as such, and only backends that have the option as having it", () => {
    const wrong: string[] = [];
    for (const { transport, backend } of DRIVEN)
      for (const [option, asked] of ASKED) {
        const said = refusal(backend, asked);
        if (said === undefined) continue;
        const overAcp = backend !== backendNamed(backend.name);
        const subject = overAcp ? `${backend.displayName} over ACP (--transport acp)` : backend.displayName;
        if (!said.includes(subject)) wrong.push(`${backend.name} ${transport} ${option}: ${said} (not of ${subject})`);
        // "(A and B have it; X has it without --transport acp)"
        const list = /\(([^()]*?) ha(?:s|ve) it(?:; (.+) has it without --transport acp)?\)$/.exec(said);
        if (list === null) continue;
        for (const name of list[1]!.split(" and ")) {
          const taker = byDisplayName(name);
          if (taker.name === backend.name || !has(taker, option, asked))
            wrong.push(`${backend.name} ${transport} ${option}: ${said} (${name} does not have it as said)`);
        }
        if (list[2] !== undefined && !(overAcp && has(backendNamed(backend.name), option, asked)))
          wrong.push(`${backend.name} ${transport} ${option}: ${said} (${list[2]} does not have it natively)`);
      }
    expect(wrong).toEqual([]);
  });

  it("say the transport as the library names it", () => {
    const copilot = withTransport(backendNamed("copilot"), "acp", BACKENDS);
    let error: unknown;
    try {
      refuseLacking(copilot, { workdir: "/w" });
    } catch (err) {
      error = err;
    }
    expect((error as OptionError).wordedAs(libraryNaming).message).toBe(
      "option workdir: Copilot CLI over ACP (option transport acp) has no workdir flag (EvoScientist and Codex and OpenCode have it; Copilot CLI has it without option transport acp)",
    );
  });
});

describe("--model over ACP", () => {
  it("reaches every agent that speaks ACP under its own name", () => {
    for (const { transport, backend } of DRIVEN)
      if (transport === "acp" && backend.name !== "acp")
        expect(reaches(backend.supports.model), backend.name).toBe(true);
  });

  it("reaches OpenCode in OPENCODE_CONFIG_CONTENT (opencode acp has no flag for it), over the caller's config", () => {
    const opencode = withTransport(backendNamed("opencode"), "acp", BACKENDS);
    const request = { prompt: "p", backendArgs: [], promptTerminator: false, model: "fake/m1" };
    const reached = reachBackend(opencode, request, { OPENCODE_CONFIG_CONTENT: '{"share":"disabled","model":"x"}' });
    expect(reached.argv(request)).toEqual(["acp"]);
    expect(JSON.parse(reached.env.OPENCODE_CONFIG_CONTENT!)).toEqual({ share: "disabled", model: "fake/m1" });
    // A caller's variable that is not a JSON object is one OpenCode would skip: replaced.
    const over = reachBackend(opencode, request, { OPENCODE_CONFIG_CONTENT: "not json" });
    expect(over.env).toEqual({ OPENCODE_CONFIG_CONTENT: '{"model":"fake/m1"}' });
  });
});
