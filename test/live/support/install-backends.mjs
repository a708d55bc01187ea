// Installs the live targets into a git-ignored cache, once: a folder counts as
// installed only when its marker file was written after a complete install.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nativePlatform } from "../../helpers/live/latest.mjs";
import { NODE_22 } from "../../helpers/live/live-targets.mjs";
import { spawnCollect } from "../../helpers/live/spawn-collect.mjs";

// AGENTSTREAM_LIVE_CACHE_DIR moves it (CI's fresh clone reuses the original checkout's .cache/live/).
const CACHE_DIR =
  process.env.AGENTSTREAM_LIVE_CACHE_DIR || fileURLToPath(new URL("../../../.cache/live/", import.meta.url));
const MARKER = ".installed.json";
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/**
 * Make sure every target is installed; returns, per target, what a run needs:
 * `{ id, backend, package, version, executable, runtime }`.
 */
export async function installBackends(targets, log = (line) => process.stderr.write(`${line}\n`)) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const needsNode22 = targets.some((t) => t.node === "22");
  const node22 = needsNode22
    ? installOnce(join(CACHE_DIR, `node-${NODE_22.version}`), `Node ${NODE_22.version}`, log, installNode22)
    : undefined;
  return Promise.all(
    targets.map(async (target) => {
      const dir = join(CACHE_DIR, target.id);
      const label = `${target.package}@${target.version}`;
      const node = target.node === "22" ? (await node22).node : process.execPath;
      const installed = await installOnce(dir, label, log, (d) => installTarget(d, target, node));
      const { id, backend, package: name, version, latestOf, platformPackage } = target;
      return {
        id,
        backend,
        package: name,
        version,
        ...(latestOf ? { latestOf } : {}),
        ...(platformPackage ? { platformPackage } : {}),
        ...installed,
      };
    }),
  );
}

function installTarget(dir, target, node) {
  if (target.registry === "pypi") return installFromPypi(dir, target);
  return target.node === "native" ? installNativeFromNpm(dir, target) : installFromNpm(dir, target, node);
}

async function installOnce(dir, label, log, install) {
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    const facts = JSON.parse(readFileSync(marker, "utf8"));
    // Paths in it (and in the wrapper script) are absolute: valid only for the folder they were written in.
    if (facts.dir === dir && existsSync(facts.executable ?? facts.node)) return facts;
  }
  // A folder without a valid marker is a broken install (or one made through another path): start again.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  log(`live: installing ${label} into ${dir}`);
  const facts = { ...(await install(dir)), dir };
  writeFileSync(marker, JSON.stringify(facts, null, 2));
  log(`live: installed ${label} in ${Math.round((Date.now() - started) / 1000)} s`);
  return facts;
}

async function installNode22(dir) {
  await npmInstall(dir, `${NODE_22.package}@${NODE_22.version}`);
  const node = join(dir, "node_modules", NODE_22.package, "bin", "node");
  return { node, version: (await output(node, ["--version"])).trim() };
}

async function installFromNpm(dir, target, node) {
  await npmInstall(dir, `${target.package}@${target.version}`);
  const packageDir = join(dir, "node_modules", ...target.package.split("/"));
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const entry = join(packageDir, typeof manifest.bin === "string" ? manifest.bin : manifest.bin[target.command]);
  // A wrapper, so the backend runs on the chosen Node whatever PATH says.
  const executable = join(dir, target.command);
  writeFileSync(executable, `#!/bin/sh\nexec '${node}' '${entry}' "$@"\n`);
  chmodSync(executable, 0o755);
  const runtime = `node ${(await output(node, ["--version"])).trim()}`;
  return { executable, runtime, reported: await reportedVersion(executable) };
}

/**
 * A native program an npm package ships in an optional dependency per platform
 * (`<package>-<platform>-<arch>`, `-musl` where the C library is musl): the
 * executable at the platform package's top (Claude Code) or in
 * `vendor/<target triple>/bin/` (Codex). It is run directly: no postinstall
 * script (Claude Code's copies the binary over a placeholder) has to have run,
 * and no Node launcher sits between (Codex's, on Node 20, runs it as a child
 * that a SIGKILL to the launcher would orphan).
 */
async function installNativeFromNpm(dir, target) {
  const platform = nativePlatform();
  // The platform packages' prefix, where it is not the package's own name (OpenCode's: opencode-linux-x64).
  const platformPackage = `${target.platformPrefix ?? target.package}-${platform}`;
  // A platform package newer than its wrapper (--latest) is installed by itself, at its own version.
  if (target.platformPackage) await npmInstall(dir, `${target.platformPackage}@${target.version}`);
  else await npmInstall(dir, `${target.package}@${target.version}`);
  const platformDir = join(dir, "node_modules", ...platformPackage.split("/"));
  if (!existsSync(platformDir))
    throw new Error(
      `${target.package}@${target.version}: no ${platformPackage} was installed (its optional dependency for this platform)`,
    );
  const executable = [
    join(platformDir, target.command),
    ...vendorBinaries(platformDir, target.command),
    // OpenCode's, under bin/.
    join(platformDir, "bin", target.command),
  ].find((path) => existsSync(path));
  if (executable === undefined)
    throw new Error(`${target.package}@${target.version}: no ${target.command} binary in ${platformPackage}`);
  // The platform package's own version can differ from the wrapper's: the runtime names the binary's.
  const { version } = JSON.parse(readFileSync(join(platformDir, "package.json"), "utf8"));
  const env = target.unpacksInto ? { ...process.env, [target.unpacksInto]: unpackCache(target.backend) } : undefined;
  return {
    executable,
    runtime: `native ${platformPackage} ${version}`,
    reported: await reportedVersion(executable, env),
  };
}

/**
 * Where a binary that unpacks itself on first run (Copilot CLI) keeps what it unpacked: shared by its runs,
 * as unpacking takes seconds and hundreds of MB (it keeps one folder per version inside).
 */
export function unpackCache(backend) {
  return join(CACHE_DIR, `${backend}-unpacked`);
}

function vendorBinaries(platformDir, command) {
  const vendor = join(platformDir, "vendor");
  return existsSync(vendor) ? readdirSync(vendor).map((triple) => join(vendor, triple, "bin", command)) : [];
}

async function installFromPypi(dir, target) {
  await run("python3", ["-m", "venv", dir]);
  const pip = join(dir, "bin", "pip");
  await run(pip, [
    "install",
    "--disable-pip-version-check",
    "--no-input",
    "--quiet",
    `${target.package}==${target.version}`,
  ]);
  const executable = join(dir, "bin", target.command);
  const runtime = (await output(join(dir, "bin", "python"), ["--version"])).trim().toLowerCase();
  return { executable, runtime, reported: await reportedVersion(executable) };
}

/** What the executable says its version is (pi 0.73 says it on stderr). */
async function reportedVersion(executable, env) {
  const { stdout, stderr } = await run(executable, ["--version"], env);
  return `${stdout}${stderr}`.trim();
}

function npmInstall(dir, spec) {
  return run("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", spec]);
}

async function output(command, args) {
  return (await run(command, args)).stdout;
}

/** Run a command to completion; reject with its stderr when it fails. */
async function run(command, args, env) {
  const result = await spawnCollect(command, args, { timeoutMs: INSTALL_TIMEOUT_MS, ...(env ? { env } : {}) });
  if (result.exitCode === 0) return result;
  throw new Error(
    `${command} ${args.join(" ")} failed (${result.signal ?? `exit ${result.exitCode}`}):\n${result.stderr.slice(-8000)}`,
  );
}
