import type { ErrorInfo } from "../canonical/events.js";
import { classifyError, type BackendErrorClues } from "./classification.js";
import { defined } from "../core/fields.js";
import { draft, type Draft } from "../core/translator.js";

/** A backend's error message as the run's error: classified by the table (classification.ts). */
export function errorInfo(message: string, clues?: BackendErrorClues): ErrorInfo {
  const c = classifyError(message, clues);
  return { code: c.code, message, retryable: c.retryable };
}

/** A backend's error message as an `error` event. */
export function errorDraft(message: string, native: string, clues?: BackendErrorClues): Draft<"error"> {
  const c = classifyError(message, clues);
  return draft("error", defined({ code: c.code, message, retryable: c.retryable, http_status: c.http_status }), {
    native,
  });
}
