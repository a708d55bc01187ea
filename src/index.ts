// The library: the same translation the CLI does, for Node programs.
export type * from "./canonical/events.js";
export { normalizeStream, type NormalizeOptions } from "./lib/normalize.js";
export { run, type RunOptions } from "./lib/run.js";
export {
  compare,
  type CompareOptions,
  type CompareRow,
  type CompareSummary,
  type AgentSummary,
} from "./lib/compare.js";
export type { PermissionCallback, ToolPermissionRequest } from "./backends/request.js";
export { readCanonicalStream, CanonicalLineError } from "./core/read-canonical.js";
export { TranslationSession, type TranslationSessionOptions } from "./lib/translation-session.js";
export { CanonicalStream, type CanonicalStreamOptions } from "./core/canonical-stream.js";
import { AtomicTranslator as AtomicTranslatorClass } from "./backends/atomic/translator.js";
import { EvosciTranslator as EvosciTranslatorClass } from "./backends/evosci/translator.js";
// No translator class is exported by name: every one is reached the same way, by its backend's name
// (createTranslator(name), TRANSLATORS, or BACKENDS[i].createTranslator()), behind the one Translator
// interface, so a new backend adds no export and a translator's class stays free to change.
export {
  BACKENDS,
  BACKEND_NAMES,
  TRANSLATORS,
  createTranslator,
  detectProtocolOwner,
  detectBackend,
  type BackendDefinition,
  type BackendName,
  type ProtocolName,
} from "./backends/registry.js";
export type {
  Draft,
  NativeEvent,
  Outcome,
  StreamEndFacts,
  Translator,
  TranslatorCatalog,
  TranslatorConclusion,
  // Deprecated spellings, kept for a release (README: Renamed in 0.2.0).
  Ending,
  StreamEnd,
} from "./core/translator.js";
export { ContentDetector } from "./backends/detect.js";
export type { BackendDetector, Verdict } from "./core/translator.js";
export type { Interruption, RunOutcome, ResolvedOutcome } from "./core/outcome.js";
export { exitCodeFor } from "./core/exit-codes.js";
export { AgentstreamError, UsageError } from "./core/errors.js";
export { classifyError } from "./backends/classification.js";
export { systemClock, steppingClock, type Clock } from "./core/clock.js";
export { LineSplitter, type Line } from "./core/line-splitter.js";
export { StreamVerifier } from "./verify/stream-verifier.js";
export { verifyStream, type VerifyStreamOptions, type VerifySummary } from "./verify/verify-stream.js";
export type { VerifyProblem } from "./verify/problem.js";
export { SCHEMA_PATH, loadSchema } from "./schema/schema-files.js";
export { VERSION } from "./version.js";

// Renamed in 0.2.0 (README: Renamed in 0.2.0): the old spellings, for one release.
/** @deprecated use createTranslator with the backend's name */
export const EvosciTranslator = EvosciTranslatorClass;
/** @deprecated use Translator */
export type EvosciTranslator = EvosciTranslatorClass;
/** @deprecated use createTranslator with the backend's name */
export const AtomicTranslator = AtomicTranslatorClass;
/** @deprecated use Translator */
export type AtomicTranslator = AtomicTranslatorClass;
