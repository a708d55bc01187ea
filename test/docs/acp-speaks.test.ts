// docs/protocols/acp.md "What agentstream speaks (ACP v1)" against the ACP v1 schema of the installed SDK and
// against what `initialize` declares (issue 56 item 4): every client and agent capability, method and update
// kind of the schema is a row, no row names one the schema lacks, and the client capabilities declared are the
// table's "yes" rows.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENT_CAPABILITIES, clientCapabilities } from "../../src/backends/acp/capabilities.js";

type Schema = { $ref?: string; allOf?: Schema[]; anyOf?: Schema[]; properties?: Record<string, Schema> } & Record<
  string,
  unknown
>;

// The SDK as installed (its package exports neither package.json nor its schema).
const SDK = fileURLToPath(new URL("../../node_modules/@agentclientprotocol/sdk", import.meta.url));
const SDK_VERSION = (JSON.parse(readFileSync(join(SDK, "package.json"), "utf8")) as { version: string }).version;
const V1 = JSON.parse(readFileSync(join(SDK, "schema/v1/schema.json"), "utf8")) as { $defs: Record<string, Schema> };
const DOC = readFileSync(fileURLToPath(new URL("../../docs/protocols/acp.md", import.meta.url)), "utf8");

/** The schema a property refers to (directly, by allOf or by a nullable anyOf), if any. */
function target(p: Schema): Schema | undefined {
  const ref = p.$ref ?? p.allOf?.find((x) => x.$ref)?.$ref ?? p.anyOf?.find((x) => x.$ref)?.$ref;
  return ref === undefined ? undefined : V1.$defs[ref.split("/").at(-1)!];
}

/** A capability object's leaves by dotted path: a member whose own object has members (other than _meta) is descended into. */
function leaves(def: Schema, at = ""): string[] {
  return Object.entries(def.properties ?? {})
    .filter(([key]) => key !== "_meta")
    .flatMap(([key, p]) => {
      const inner = target(p);
      const path = at === "" ? key : `${at}.${key}`;
      return inner && Object.keys(inner.properties ?? {}).some((k) => k !== "_meta") ? leaves(inner, path) : [path];
    });
}

/** The rows of the table under `heading` (### level): each row's cells, backticks stripped from the first. */
function table(heading: string): string[][] {
  const start = DOC.indexOf(`### ${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const rest = DOC.slice(start).split("\n").slice(1);
  const lines = rest.slice(rest.findIndex((l) => l.startsWith("|")));
  const rows = lines
    .slice(
      0,
      lines.findIndex((l) => !l.startsWith("|")),
    )
    .slice(2);
  return rows.map((row) =>
    row
      .slice(1, -1)
      .split("|")
      .map((cell, i) => (i === 0 ? cell.trim().replace(/^`|`$/g, "") : cell.trim())),
  );
}

/** What CLIENT_CAPABILITIES declares at a dotted path: true, {} (a capability object) or nothing. */
function declared(path: string): boolean {
  let value: unknown = CLIENT_CAPABILITIES;
  for (const key of path.split(".")) value = (value as Record<string, unknown> | undefined)?.[key];
  return value === true || (typeof value === "object" && value !== null);
}

/** Every dotted leaf CLIENT_CAPABILITIES sets, whatever its value. */
function setPaths(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null || Object.keys(value).length === 0) return [at];
  return Object.entries(value).flatMap(([k, v]) => setPaths(v, at === "" ? k : `${at}.${k}`));
}

describe("docs/protocols/acp.md: what agentstream speaks", () => {
  it("names the SDK and schema it was checked against", () => {
    expect(DOC).toContain(`\`@agentclientprotocol/sdk\` ${SDK_VERSION}`);
  });

  it("lists every client capability of the v1 schema, and declares in initialize exactly the ones it says yes to", () => {
    const rows = table("Client capabilities agentstream declares");
    expect(rows.map((r) => r[0]).sort()).toEqual(leaves(V1.$defs.ClientCapabilities!).sort());
    for (const [name, yes] of rows) expect(`${name}: ${declared(name!) ? "yes" : "no"}`).toBe(`${name}: ${yes}`);
    // Nothing declared that the schema (and so the table) lacks.
    for (const path of setPaths(CLIENT_CAPABILITIES)) expect(rows.map((r) => r[0])).toContain(path);
  });

  it("declares form elicitation only where the run offers questions, as its row says; URL elicitation never", () => {
    const row = table("Client capabilities agentstream declares").find((r) => r[0] === "elicitation.form")!;
    expect(row[2]).toMatch(/^only where the run offers questions/);
    expect(clientCapabilities(true)).toEqual(CLIENT_CAPABILITIES);
    expect(clientCapabilities(true).elicitation).toEqual({ form: {} });
    const without = clientCapabilities(false);
    expect(without.elicitation).toBeUndefined();
    expect(without).toEqual(
      Object.fromEntries(Object.entries(CLIENT_CAPABILITIES).filter(([k]) => k !== "elicitation")),
    );
    expect(DOC).toMatch(/never\s+`elicitation\.url`/);
  });

  it("lists every agent capability of the v1 schema", () => {
    const rows = table("Agent capabilities agentstream reads");
    expect(rows.map((r) => r[0]).sort()).toEqual(leaves(V1.$defs.AgentCapabilities!).sort());
  });

  it("lists every method of the v1 schema", () => {
    const methods = new Set(
      Object.values(V1.$defs)
        .map((d) => d["x-method"])
        .filter((m): m is string => typeof m === "string"),
    );
    expect(
      table("Methods")
        .map((r) => r[0])
        .sort(),
    ).toEqual([...methods].sort());
  });

  it("lists every session update kind of the v1 schema", () => {
    const kinds = (V1.$defs.SessionUpdate!.oneOf as Schema[]).map(
      (k) => (k.properties!.sessionUpdate as { const: string }).const,
    );
    expect(
      table("Session update kinds")
        .map((r) => r[0])
        .sort(),
    ).toEqual(kinds.sort());
  });
});
