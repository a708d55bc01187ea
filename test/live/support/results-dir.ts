import { fileURLToPath } from "node:url";

/** Where one live run keeps what its report is made of (git-ignored, emptied at each run's start). */
export const RESULTS_DIR = fileURLToPath(new URL("../../../.cache/live-results/", import.meta.url));
