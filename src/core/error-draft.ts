import type { ErrorInfo } from "../canonical/events.js";
import { classifyError } from "./classify.js";
import { defined } from "./fields.js";
import { draft, type Draft } from "./translator.js";

/** A backend's error message as the run's error: classified by status and wording. */
export function errorInfo(message: string): ErrorInfo {
  const c = classifyError(message);
  return { code: c.code, message, retryable: c.retryable };
}

/** A backend's error message as an `error` event. */
export function errorDraft(message: string, native: string): Draft<"error"> {
  const c = classifyError(message);
  return draft("error", defined({ code: c.code, message, retryable: c.retryable, http_status: c.http_status }), {
    native,
  });
}
