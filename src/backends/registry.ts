// The one list of backends. The CLI's choices and help, run, normalize --from,
// auto-detection, the README's backend table and the schema's `backend` enum
// are read from it or tested against it.
import type { BackendDetector, NativeEvent, Translator, TranslatorCatalog } from "../core/translator.js";
import { ContentDetector, protocolOwner } from "./detect.js";
import { UsageError } from "../core/errors.js";
import { acp } from "./acp/index.js";
import { atomic } from "./atomic/index.js";
import { codex } from "./codex/index.js";
import { claude } from "./claude/index.js";
import { copilot } from "./copilot/index.js";
import type { BackendDefinition } from "./definition.js";
import { evosci } from "./evosci/index.js";
import { gemini } from "./gemini/index.js";
import { opencode } from "./opencode/index.js";
import { pi } from "./pi/index.js";
import { qwen } from "./qwen/index.js";

export type { BackendDefinition } from "./definition.js";

/** In the order help and tables list them. */
export const BACKENDS = [
  evosci,
  atomic,
  pi,
  gemini,
  codex,
  claude,
  opencode,
  copilot,
  qwen,
  acp,
] as const satisfies readonly BackendDefinition[];
/** A backend's name, as --backend and --from take it. */
export type BackendName = (typeof BACKENDS)[number]["name"];
export const BACKEND_NAMES: readonly BackendName[] = BACKENDS.map((b) => b.name);

/** A protocol's name: backends that write the same one share it (pi writes Atomic's, "atomic"). */
export type ProtocolName = (typeof BACKENDS)[number]["protocol"];

/** A stream that never shows a JSON event is read as this backend's. */
const FALLBACK = evosci;

/** One of the registry's definitions, with its own name and protocol types. */
type RegisteredBackend = (typeof BACKENDS)[number];

export function backendNamed(name: string): RegisteredBackend {
  const found = BACKENDS.find((b) => b.name === name);
  if (!found) throw new UsageError(`unknown backend ${JSON.stringify(name)}`, `one of: ${BACKEND_NAMES.join(", ")}`);
  return found;
}

export function protocolOf(backend: string): ProtocolName {
  return backendNamed(backend).protocol;
}

export function createTranslator(backend: string): Translator {
  return backendNamed(backend).createTranslator();
}

/** A fresh detector for one stream, over every registered backend. */
export function backendDetector(): BackendDetector {
  return new ContentDetector(BACKENDS, FALLBACK);
}

/**
 * The backend that owns the protocol of a stream's first JSON event: the first
 * registered backend that writes it, standing for all that do ("atomic" for a
 * pi stream too; the ContentDetector tells them apart by content).
 */
export function detectProtocolOwner(first: NativeEvent): BackendName {
  return (protocolOwner(BACKENDS as readonly BackendDefinition<BackendName>[], first) ?? FALLBACK).name;
}

/** @deprecated use detectProtocolOwner: it names a protocol's owner ("atomic" for a pi stream), not the backend. */
export function detectBackend(first: NativeEvent): BackendName {
  return detectProtocolOwner(first);
}

/** The registry as the core's translation session sees it. */
export const TRANSLATORS: TranslatorCatalog = { create: createTranslator, detector: backendDetector };
