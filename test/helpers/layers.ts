// The layers of src/, as the source map of docs/development.md draws them (test/repo/architecture.test.ts
// checks the imports against them; test/helpers/request-path.ts, which calls go down).
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Each folder's rank: higher imports lower; folders of one rank do not import each other. */
export const RANK: Record<string, number> = {
  canonical: 0,
  schema: 0,
  core: 1,
  run: 2,
  human: 2,
  verify: 2,
  report: 2,
  export: 2,
  // The permission policy: the rules' grammar, the shell reading and the live answerers, which every
  // backend's native mapping and the ACP driver use.
  policy: 2.5,
  backends: 3,
  output: 3,
  app: 4,
  // agentstream compare: many runs, each through app's one run path.
  compare: 4.5,
  lib: 5,
  cli: 5,
  // src/index.ts, the library's exports; src/version.ts imports nothing and is read by any layer.
  index: 6,
  version: 0,
};

/** Every .ts file under a folder. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}
