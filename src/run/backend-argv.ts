import { UsageError } from "../core/errors.js";
import type { BackendSpec } from "./backends.js";

/** What the user asked the backend to do, before it becomes argv. */
export interface BackendRequest {
  prompt: string;
  model?: string;
  provider?: string;
  /** EvoSci's --workdir (absolute). */
  workdir?: string;
  /** EvoSci: false adds --no-auto-mode. */
  autoMode: boolean;
  /** Passed through as given, before the prompt. */
  backendArgs: string[];
  /** Put `--` before the prompt (Atomic, pi >= 1.6) so a prompt starting with "-" stays a prompt. */
  promptTerminator: boolean;
}

/** Refuse options the chosen backend does not have, before anything is spawned. */
export function checkRequestFits(spec: BackendSpec, request: Omit<BackendRequest, "prompt" | "promptTerminator">): void {
  if (spec.backend === "evosci") {
    for (const flag of ["model", "provider"] as const) {
      if (request[flag] !== undefined) {
        throw new UsageError(
          `--${flag}: EvoScientist has no ${flag} flag`,
          "set `provider` and `model` in $XDG_CONFIG_HOME/evoscientist/config.yaml (or ~/.config/evoscientist/config.yaml)",
        );
      }
    }
    return;
  }
  if (request.workdir !== undefined) {
    throw new UsageError(`--workdir is an EvoScientist flag; ${spec.displayName} has none`, "use --cwd DIR to choose the directory the backend runs in");
  }
  if (!request.autoMode) throw new UsageError(`--no-auto-mode is an EvoScientist flag; ${spec.displayName} has none`);
}

/** The backend's argv (without the executable): no shell, the prompt one argument. */
export function backendArgv(spec: BackendSpec, request: BackendRequest): string[] {
  if (spec.backend === "evosci") {
    return [
      "-p",
      request.prompt,
      "--output-format",
      "stream-json",
      ...(request.autoMode ? [] : ["--no-auto-mode"]),
      ...(request.workdir !== undefined ? ["--workdir", request.workdir] : []),
      ...request.backendArgs,
    ];
  }
  return [
    "--mode",
    "json",
    ...(request.provider !== undefined ? ["--provider", request.provider] : []),
    ...(request.model !== undefined ? ["--model", request.model] : []),
    ...request.backendArgs,
    ...(request.promptTerminator ? ["--"] : []),
    request.prompt,
  ];
}
