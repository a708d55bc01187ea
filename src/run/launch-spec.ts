/** What process supervision needs to know of a backend: how to find it, name it and stop it. */
export interface LaunchSpec {
  displayName: string;
  /** Names looked up on PATH, in order. */
  executableNames: readonly string[];
  /** Environment variable that points at the executable. */
  binEnvVar: string;
  /** How to install it, for the hint when it is missing. */
  install: string;
  /** The signal that lets the backend shut down cleanly. */
  stopSignal: NodeJS.Signals;
}
