// A permission request as a caller answers it (the library's onPermissionRequest), and what answers one no
// rule and no answerer decided (--approvals): the request's terms, which the backends' request carries.

/**
 * never: a request that needs a human ends the run needs_input; auto: the backend's own auto-approval; ask: a
 * person at the terminal answers each request no rule decides (a backend asked live only).
 */
export const APPROVALS_MODES = ["never", "auto", "ask"] as const;
export type ApprovalsMode = (typeof APPROVALS_MODES)[number];

/** A permission request an agent asks while it runs (ACP), as the library's onPermissionRequest is given it. */
export interface ToolPermissionRequest {
  /** The request's id, as input.requested and input.answered name it. */
  requestId: string;
  toolCallId?: string;
  /** The call's ACP kind: execute, read, edit, fetch, delete, move, search, think, other. */
  kind: string;
  /** What the agent calls it (its title). */
  title?: string;
  /** The command, path or URL NAME(PATTERN) rules match, where the call names one. */
  target?: string;
  /** The call's input, as the agent sent it (empty where it sent none). */
  input: Record<string, unknown>;
}

/** Answers a request live: "allow" or "reject", or undefined to leave it to the rules. */
export type PermissionCallback = (
  request: ToolPermissionRequest,
) => "allow" | "reject" | undefined | Promise<"allow" | "reject" | undefined>;
