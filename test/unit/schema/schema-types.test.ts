// The schema and the TypeScript types describe one contract: this proves they
// list the same event types, the same fields, and agree on which are required.
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { loadSchema } from "../../../src/schema/schema-files.js";

const EVENTS_TS = fileURLToPath(new URL("../../../src/canonical/events.ts", import.meta.url));
const program = ts.createProgram([EVENTS_TS], { strict: true, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(EVENTS_TS)!;

function declaredType(name: string): ts.Type {
  let found: ts.Type | undefined;
  source.forEachChild((node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text === name) {
      found = checker.getTypeAtLocation(node.name);
    }
  });
  if (!found) throw new Error(`no type ${name} in events.ts`);
  return found;
}

/** field name → required? */
function tsFields(type: ts.Type): Record<string, boolean> {
  const fields: Record<string, boolean> = {};
  for (const prop of checker.getPropertiesOfType(type))
    fields[prop.name] = (prop.flags & ts.SymbolFlags.Optional) === 0;
  return fields;
}

function memberType(type: ts.Type, name: string): ts.Type {
  const prop = checker.getPropertyOfType(type, name)!;
  return checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, source));
}

type SchemaNode = {
  properties?: Record<string, SchemaNode>;
  required?: string[];
  $ref?: string;
  oneOf?: SchemaNode[];
  items?: SchemaNode;
};
const schema = loadSchema() as SchemaNode & { $defs: Record<string, SchemaNode>; allOf: { then: { $ref: string } }[] };

function deref(node: SchemaNode): SchemaNode {
  return node.$ref ? deref(schema.$defs[node.$ref.split("/").pop()!]!) : node;
}

function schemaFields(node: SchemaNode): Record<string, boolean> {
  const n = deref(node);
  const objectBranch = n.oneOf?.find((b) => b.properties) ?? n;
  const required = new Set(objectBranch.required ?? []);
  return Object.fromEntries(Object.keys(objectBranch.properties ?? {}).map((k) => [k, required.has(k)]));
}

const payloads = declaredType("EventPayloads");
const eventTypes = checker.getPropertiesOfType(payloads).map((p) => p.name);

describe("schema and TypeScript types", () => {
  it("list the same event types", () => {
    const schemaTypes = schema.allOf.map((rule) => rule.then.$ref.split("/").pop());
    expect([...eventTypes].sort()).toEqual([...schemaTypes].sort());
  });

  it("agree on the envelope", () => {
    expect(tsFields(declaredType("Envelope"))).toEqual(schemaFields(schema));
  });

  for (const type of eventTypes) {
    it(`agree on the fields of ${type}`, () => {
      expect(tsFields(memberType(payloads, type))).toEqual(schemaFields(schema.$defs[type]!));
    });
  }

  it("agree on the objects inside run.finished", () => {
    const finished = memberType(payloads, "run.finished");
    const props = schema.$defs["run.finished"]!.properties!;
    for (const field of ["usage", "counts", "error", "resume", "backend_exit", "result"]) {
      expect(tsFields(memberType(finished, field)), field).toEqual(schemaFields(props[field]!));
    }
    expect(tsFields(declaredType("InputRequest"))).toEqual(schemaFields(props.pending!.items!));
  });

  it("agree on input actions and questions", () => {
    expect(tsFields(declaredType("InputAction"))).toEqual(schemaFields(schema.$defs.input_action!));
    expect(tsFields(declaredType("InputQuestion"))).toEqual(schemaFields(schema.$defs.input_question!));
  });
});
