import type { ErrorObject } from "ajv";

export interface Validator {
  (event: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let compiled: Validator | undefined;

/** The canonical v1 validator, compiled at build time (see build-validators.ts). */
export async function loadValidator(): Promise<Validator> {
  if (!compiled) {
    // @ts-ignore: generated at build time, after tsc, so it has no types.
    const mod = (await import("./canonical-validator.generated.js")) as { default: Validator };
    compiled = mod.default;
  }
  return compiled;
}

/** One line per problem: "/path must be ..." */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "invalid";
  return errors.map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`).join("; ");
}
