// Running the built CLI as user nobody (root's tests of a file root may read
// or write but others may not). The checkout may lie where nobody cannot reach
// it (inside /root, mode 0700): then what the CLI loads is copied to a
// temporary folder nobody can read, and run from there.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { BIN } from "./cli.js";

const SETPRIV = "/usr/bin/setpriv";
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];
const ROOT = dirname(dirname(BIN));

/** Whether a test may drop to user nobody at all: root, with setpriv. */
export const canRunAsNobody = process.getuid?.() === 0 && existsSync(SETPRIV);

/** A CLI user nobody can run, and how to run it; or why there is none. */
export type NobodyCli = { run(args: string[]): SpawnSyncReturns<string>; remove(): void } | { skip: string };

/**
 * The built CLI as user nobody can run it: the checkout's own when nobody
 * reaches it, else a copy of bin/, dist/, schemas/, package.json and the
 * production dependencies in a folder of mode 0755 under the temporary folder.
 * `skip` says why not (node itself, or the temporary folder, out of nobody's reach).
 */
export function cliForNobody(): NobodyCli {
  if (!canRunAsNobody) return { skip: "needs root and /usr/bin/setpriv to run the CLI as user nobody" };
  const node = asNobody(["-e", "0"], tmpdir());
  if (node.status !== 0)
    return { skip: `user nobody cannot run node at ${process.execPath}: ${node.stderr.trim().split("\n")[0]}` };
  if (asNobody([BIN, "--version"], tmpdir()).status === 0)
    return { run: (args) => asNobody([BIN, ...args], tmpdir()), remove: () => {} };
  const copy = mkdtempSync(join(tmpdir(), "agentstream-nobody-"));
  chmodSync(copy, 0o755);
  const remove = (): void => rmSync(copy, { recursive: true, force: true });
  for (const part of ["bin", "dist", "schemas", "package.json", ...productionPackages()])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  const bin = join(copy, relative(ROOT, BIN));
  const check = asNobody([bin, "--version"], copy);
  if (check.status !== 0) {
    remove();
    return { skip: `user nobody cannot run the CLI copied to ${copy}: ${check.stderr.trim().split("\n")[0]}` };
  }
  return { run: (args) => asNobody([bin, ...args], copy), remove };
}

function asNobody(nodeArgs: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(SETPRIV, [...NOBODY, process.execPath, ...nodeArgs], { encoding: "utf8", cwd });
}

/** The folders (relative to the checkout) of the packages the CLI needs at run time, found as node resolves them. */
function productionPackages(): string[] {
  const found = new Set<string>();
  const visit = (from: string): void => {
    const manifest = JSON.parse(readFileSync(join(ROOT, from, "package.json"), "utf8")) as Record<string, unknown>;
    const names = ["dependencies", "optionalDependencies", "peerDependencies"].flatMap((key) =>
      Object.keys((manifest[key] as Record<string, string> | undefined) ?? {}),
    );
    for (const name of names) {
      const at = resolvePackage(from, name);
      if (at === undefined || found.has(at)) continue;
      found.add(at);
      visit(at);
    }
  };
  visit(".");
  return [...found];
}

/** Where `name` is found from the package at `from`: its node_modules, then each one above it up to the checkout's. */
function resolvePackage(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(ROOT, candidate, "package.json"))) return candidate;
    if (dir === "." || dir === "/" || dir === "") return undefined;
  }
}
