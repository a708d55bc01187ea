export interface LiveTargetPin {
  id: string;
  backend: string;
  registry: "npm" | "pypi";
  package: string;
  version: string;
  command: string;
  node?: "current" | "22" | "native";
  /** A native binary pinned at its platform package's own release, ahead of its wrapper's: installed by itself. */
  platformPackage?: string;
}
export const NODE_22: { package: string; version: string };
export const LIVE_TARGETS: LiveTargetPin[];
export const ACP_ONLY_TARGETS: LiveTargetPin[];
export function selectedTargets(env?: NodeJS.ProcessEnv): LiveTargetPin[];
export function selectedAcpTargets(env?: NodeJS.ProcessEnv): LiveTargetPin[];
export function wantsLatest(env?: NodeJS.ProcessEnv): boolean;
