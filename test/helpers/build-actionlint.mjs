#!/usr/bin/env node
// Builds actionlint (github.com/rhysd/actionlint, the linter of GitHub Actions workflows) at one release,
// from its Go module, into .cache/actionlint/<version>/actionlint, only when that binary is missing;
// test/docs/actionlint.test.ts runs it over examples/ci/*.yml. As test/otel/build-collector.mjs builds the
// collector (and with its helpers): `go install module@version` into a temporary folder beside the binary,
// renamed into place, so a half-built binary is never seen; Go's caches are the user's own where both
// folders exist, else private ones under .cache/go/, removed once the binary is built. A cache is used,
// never depended on: without one, `go` downloads the module (and its checksums) from the Go module proxy.
// A cold build downloads about 30 MB of modules and takes seconds.
//
//   node test/helpers/build-actionlint.mjs   # prints the binary's path on stdout
//
// AGENTSTREAM_ACTIONLINT_DIR puts the binaries somewhere else than .cache/actionlint (CI points it at its
// source checkout's). To move to another release, change VERSION: it names a new folder, built anew.
//
// Progress goes to stderr. Exit 2 when Go is not installed.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  GoMissingError,
  goCaches,
  goEnv,
  goVersion,
  printBuilt,
  removePrivateCaches,
  runLogged,
} from "../otel/build-collector.mjs";

export const ACTIONLINT_VERSION = "v1.7.12";
const MODULE = "github.com/rhysd/actionlint/cmd/actionlint";
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Where the binary of ACTIONLINT_VERSION lives (built or not). */
export function actionlintPath() {
  const dir = process.env.AGENTSTREAM_ACTIONLINT_DIR || join(ROOT, ".cache", "actionlint");
  return join(dir, ACTIONLINT_VERSION, "actionlint");
}

/**
 * The path of the built actionlint, building it first when it is missing.
 * Throws GoMissingError when it must be built and Go is not installed.
 */
export async function ensureActionlint({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const binary = actionlintPath();
  if (existsSync(binary)) return binary;
  const caches = goCaches();
  const env = goEnv(process.env, caches);
  const version = goVersion(env);
  if (!version) throw new GoMissingError("actionlint");

  const dir = join(binary, "..");
  mkdirSync(dir, { recursive: true });
  // go install writes to GOBIN: a folder of this build's own, outside any Go module.
  const temporary = mkdtempSync(join(dir, ".build-"));
  const started = Date.now();
  log(`actionlint: building ${MODULE}@${ACTIONLINT_VERSION} with ${version}, Go's caches in ${env.GOMODCACHE}`);
  try {
    await runLogged("go", ["install", "-trimpath", "-ldflags=-s -w", `${MODULE}@${ACTIONLINT_VERSION}`], {
      cwd: temporary,
      env: { ...env, GOBIN: temporary },
      log: (line) => log(`actionlint: ${line}`),
    });
    renameSync(join(temporary, "actionlint"), binary);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  log(`actionlint: built in ${Math.round((Date.now() - started) / 1000)} s: ${binary}`);
  if (caches.private) removePrivateCaches(env, (line) => log(`actionlint: ${line}`));
  return binary;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await printBuilt(ensureActionlint, "actionlint");
