/**
 * A backend's error message as a person reads it. Providers answer with a JSON
 * body (or a Python dict, from EvoScientist) after a status: "500: {"message":
 * "The server had an error", "type": "server_error", ...}". The body's message
 * replaces the body ("500: The server had an error"); its other values become
 * fields ("type: server_error"), shown below rather than inline.
 */
export interface ErrorText {
  /** The message's lines, the first with its body replaced by what the body says. */
  lines: string[];
  /** "key: value" for the body's other values (nested keys dotted). */
  fields: string[];
}

const MAX_FIELDS = 6;
const MAX_FIELD_VALUE = 80;

export function errorText(message: string): ErrorText {
  const lines = message
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const first = lines[0] ?? "";
  const brace = first.indexOf("{");
  const body = brace === -1 ? undefined : parseBody(first.slice(brace));
  if (!body) return { lines, fields: [] };
  const found = findMessage(body, []);
  const before = first.slice(0, brace).replace(/[\s:-]+$/, "");
  const said = [before, found?.text].filter((part) => part).join(": ");
  const fields = flatten(body, [], found?.path.join("."));
  return { lines: [said || first, ...lines.slice(1)], fields };
}

type Body = Record<string, unknown>;

/** The JSON (or Python dict) object this text starts with, if it is one. */
function parseBody(text: string): Body | undefined {
  const end = text.lastIndexOf("}");
  if (end === -1) return undefined;
  const candidate = text.slice(0, end + 1);
  for (const attempt of [candidate, pythonToJson(candidate)]) {
    try {
      const value = JSON.parse(attempt) as unknown;
      if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Body;
    } catch {
      // not this form
    }
  }
  return undefined;
}

/** {'type': 'error', 'ok': None} → {"type": "error", "ok": null}; only for a dict with no double quotes inside. */
function pythonToJson(text: string): string {
  if (text.includes('"')) return text;
  return text
    .replace(/'/g, '"')
    .replace(/\bNone\b/g, "null")
    .replace(/\bTrue\b/g, "true")
    .replace(/\bFalse\b/g, "false");
}

/** The first "message" (or "detail") string, depth first. */
function findMessage(value: unknown, path: string[]): { text: string; path: string[] } | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  for (const key of ["message", "detail"]) {
    const said = (value as Body)[key];
    if (typeof said === "string" && said.trim() !== "") return { text: said.trim(), path: [...path, key] };
  }
  for (const [key, inner] of Object.entries(value)) {
    const found = findMessage(inner, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function flatten(value: Body, path: string[], skip: string | undefined, out: string[] = []): string[] {
  for (const [key, inner] of Object.entries(value)) {
    if (out.length >= MAX_FIELDS) break;
    const name = [...path, key].join(".");
    if (name === skip || inner === null || inner === "") continue;
    if (typeof inner === "object" && !Array.isArray(inner)) flatten(inner as Body, [...path, key], skip, out);
    else if (typeof inner !== "object") {
      const text = String(inner);
      out.push(`${name}: ${text.length > MAX_FIELD_VALUE ? `${text.slice(0, MAX_FIELD_VALUE - 1)}…` : text}`);
    }
  }
  return out;
}
