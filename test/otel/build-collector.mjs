#!/usr/bin/env node
// Builds the test OpenTelemetry Collector (test/otel/collector: otelcol + the
// OTLP receiver + the contrib file exporter + the OTLP exporters, one release)
// into .cache/otelcol/<hash of go.mod, go.sum and main.go>/otelcol, only when
// that binary is missing. The build goes to a temporary path beside it and is
// renamed into place, so a half-built binary is never seen (two worktrees that
// share .cache/otelcol may build at once: the last rename wins, both whole).
//
// Go's module and build caches are the user's own (`go env GOMODCACHE GOCACHE`)
// where those folders exist, so a machine that has built Go before downloads
// nothing twice; they are left as they are. Else the build makes its own under
// .cache/go/ (about 1 GB for a 34 MB binary) and removes them once the binary is
// built, so a checkout keeps only the binary; a failed build keeps them, so its
// retry downloads nothing twice. (CI sets GOMODCACHE and GOCACHE to folders of
// its own, kept between its runs: to this script they are the user's.) A cache
// is used, never depended on: without one, `go` downloads again from the Go
// module proxy, as it does by default.
//
//   node test/otel/build-collector.mjs   # prints the binary's path on stdout
//
// AGENTSTREAM_OTELCOL_DIR puts the binaries somewhere else than .cache/otelcol.
//
// To move to another collector release, change every collector module in
// test/otel/collector/go.mod together (core v0.X.0 with its v1.Y.0 modules,
// contrib v0.X.0), then in that folder, with goEnv()'s variables set, run
// `go mod tidy`; check that `grep -E "collector(-contrib)?/" go.mod` shows one
// release. The new sources hash to a new folder, so the next run builds anew.
//
// Progress goes to stderr. Exit 2 when Go is not installed.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SOURCE_DIR = join(ROOT, "test", "otel", "collector");
const SOURCE_FILES = ["go.mod", "go.sum", "main.go"];
const CACHE = join(ROOT, ".cache");

/** Raised when no `go` command is on PATH (and no binary is cached). */
export class GoMissingError extends Error {
  constructor(what = "the test OpenTelemetry Collector") {
    super(`the Go toolchain (\`go\`) is not on PATH: ${what} cannot be built`);
    this.name = "GoMissingError";
  }
}

/** The hash that names one build of the collector: its three source files. */
export function collectorHash() {
  const hash = createHash("sha256");
  for (const file of SOURCE_FILES) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(SOURCE_DIR, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** Where the binary for the current sources lives (built or not); AGENTSTREAM_OTELCOL_DIR moves .cache/otelcol. */
export function collectorPath() {
  return join(process.env.AGENTSTREAM_OTELCOL_DIR || join(CACHE, "otelcol"), collectorHash(), "otelcol");
}

/**
 * The Go caches a build uses: the user's (`go env GOMODCACHE GOCACHE`) when both folders exist, else
 * private ones under .cache/go/ (`private: true`). `goEnvOutput` stands for `go env`'s two lines.
 */
export function goCaches(goEnvOutput = userGoCaches(), exists = existsSync) {
  const [modcache, buildcache] = (goEnvOutput ?? "").split("\n").map((line) => line.trim());
  if (modcache && buildcache && exists(modcache) && exists(buildcache))
    return { GOMODCACHE: modcache, GOCACHE: buildcache, private: false };
  return { GOMODCACHE: join(CACHE, "go", "mod"), GOCACHE: join(CACHE, "go", "build"), private: true };
}

function userGoCaches(base = process.env) {
  const result = spawnSync("go", ["env", "GOMODCACHE", "GOCACHE"], { env: base, encoding: "utf8" });
  return result.error || result.status !== 0 ? undefined : result.stdout;
}

/** The environment every `go` command here runs with: the caches of goCaches(), the machine's own Go. */
export function goEnv(base = process.env, caches = goCaches(userGoCaches(base))) {
  return {
    ...base,
    GOMODCACHE: caches.GOMODCACHE,
    GOCACHE: caches.GOCACHE,
    // -modcacherw (private cache only): it can be deleted with rm -rf; -mod=readonly: go.sum is the law.
    GOFLAGS: `${caches.private ? "-modcacherw " : ""}-mod=readonly -buildvcs=false`,
    GOTOOLCHAIN: "local",
    CGO_ENABLED: "0",
  };
}

/** `go version`'s line, or undefined where no `go` runs. */
export function goVersion(env) {
  const result = spawnSync("go", ["version"], { env, encoding: "utf8" });
  if (result.error || result.status !== 0) return undefined;
  return result.stdout.trim();
}

/**
 * The path of the built collector, building it first when it is missing.
 * Throws GoMissingError when it must be built and Go is not installed.
 */
export async function ensureCollector({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const binary = collectorPath();
  if (existsSync(binary)) return binary;
  const caches = goCaches(userGoCaches());
  const env = goEnv(process.env, caches);
  const version = goVersion(env);
  if (!version) throw new GoMissingError();

  const dir = join(binary, "..");
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `otelcol.tmp-${process.pid}-${Date.now()}`);
  const started = Date.now();
  log(
    `otelcol: building the test OpenTelemetry Collector with ${version} into ${dir}, Go's caches in ${env.GOMODCACHE} and ${env.GOCACHE} (a cold build downloads about 123 MB of modules and takes a few minutes)`,
  );
  const heartbeat = setInterval(
    () => log(`otelcol: still building (${Math.round((Date.now() - started) / 1000)} s)`),
    30_000,
  );
  try {
    await runLogged("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", temporary, "."], {
      cwd: SOURCE_DIR,
      env,
      log: (line) => log(`otelcol: ${line}`),
    });
    renameSync(temporary, binary);
  } finally {
    clearInterval(heartbeat);
    rmSync(temporary, { force: true });
  }
  log(`otelcol: built in ${Math.round((Date.now() - started) / 1000)} s: ${binary}`);
  if (caches.private) removePrivateCaches(env, (line) => log(`otelcol: ${line}`));
  return binary;
}

/**
 * Removes the caches a build made under .cache/go/ (never the user's own). Go makes its module cache
 * read-only; `go clean -modcache` removes it all the same, then the rest goes. Two builds at once in
 * one checkout (`npm test` beside `npm run bench`) share these folders: the later one may then fail
 * mid-way, and its rerun finds the binary the first one built. (test/helpers/build-actionlint.mjs shares them too.)
 */
export function removePrivateCaches(env, log) {
  const clean = spawnSync("go", ["clean", "-modcache"], { env, encoding: "utf8" });
  if (clean.error || clean.status !== 0) log(`go clean -modcache failed: ${clean.stderr ?? clean.error}`);
  try {
    rmSync(join(CACHE, "go"), { recursive: true, force: true });
    log(`removed Go's caches of this build (${join(CACHE, "go")}); only the binary is kept`);
  } catch (error) {
    log(`could not remove ${join(CACHE, "go")}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs a command in `cwd`, each line of its output to `log`; rejects with its last 4,000 characters where it fails. */
export function runLogged(command, args, { cwd, env, log }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const relay = (chunk) => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4000);
      for (const line of text.split("\n")) if (line.trim() !== "") log(line);
    };
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}) in ${cwd}:\n${tail}`));
    });
  });
}

/** A build script's main: the built binary's path on stdout, else why not on stderr, exit 2 where Go is missing. */
export async function printBuilt(ensure, name) {
  try {
    process.stdout.write(`${await ensure()}\n`);
  } catch (error) {
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof GoMissingError ? 2 : 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await printBuilt(ensureCollector, "otelcol");
