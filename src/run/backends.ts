import type { Backend } from "../canonical/events.js";

/** What agentstream needs to know to start and stop one backend. */
export interface BackendSpec {
  backend: Backend;
  displayName: string;
  /** Names looked up on PATH, in order. */
  executableNames: string[];
  /** Environment variable that points at the executable. */
  binEnvVar: string;
  install: string;
  /**
   * The signal that lets the backend shut down cleanly. EvoSci handles SIGINT
   * (exit 130); Atomic and pi die on SIGINT without cleanup but handle SIGTERM.
   */
  stopSignal: NodeJS.Signals;
  /** The backend's native terminal events: after one, the run's outcome is known. */
  terminalTypes: ReadonlySet<string>;
}

export const BACKENDS: Record<Backend, BackendSpec> = {
  evosci: {
    backend: "evosci",
    displayName: "EvoScientist",
    executableNames: ["EvoSci", "evosci", "EvoScientist", "evoscientist"],
    binEnvVar: "AGENTSTREAM_EVOSCI_BIN",
    install: "pip install EvoScientist",
    stopSignal: "SIGINT",
    terminalTypes: new Set(["done", "error"]),
  },
  atomic: {
    backend: "atomic",
    displayName: "Atomic",
    executableNames: ["atomic"],
    binEnvVar: "AGENTSTREAM_ATOMIC_BIN",
    install: "npm install -g @bastani/atomic",
    stopSignal: "SIGTERM",
    terminalTypes: new Set(["agent_settled"]),
  },
  pi: {
    backend: "pi",
    displayName: "pi",
    executableNames: ["pi"],
    binEnvVar: "AGENTSTREAM_PI_BIN",
    install: "npm install -g @earendil-works/pi-coding-agent",
    stopSignal: "SIGTERM",
    // pi 0.73 has no agent_settled: its run ends at process exit.
    terminalTypes: new Set(["agent_settled"]),
  },
};
