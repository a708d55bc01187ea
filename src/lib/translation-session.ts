// The TranslationSession the library exports: the core's, its translator bugs reported as a process
// warning where the caller gives no onTranslatorBug (docs/library.md), as run() and normalizeStream() do.
// The core says nothing itself: the host says where a bug report goes.
import { showControlsInLines } from "../core/control-chars.js";
import {
  TranslationSession as CoreTranslationSession,
  type TranslationSessionOptions as CoreOptions,
} from "../core/translation-session.js";

/** The core's options, onTranslatorBug optional (default: a process warning, `AgentstreamWarning`). */
export type TranslationSessionOptions = Omit<CoreOptions, "onTranslatorBug"> &
  Partial<Pick<CoreOptions, "onTranslatorBug">>;

/** A process warning is printed on stderr: the native text it quotes has its controls shown. */
function warnOfTranslatorBug(text: string): void {
  process.emitWarning(showControlsInLines(text), "AgentstreamWarning");
}

export class TranslationSession extends CoreTranslationSession {
  constructor(options: TranslationSessionOptions) {
    super({ ...options, onTranslatorBug: options.onTranslatorBug ?? warnOfTranslatorBug });
  }
}
