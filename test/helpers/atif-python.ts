// Third-party ATIF readers from PyPI for tests: the `atif` package's models (strict validation) and
// atif-scan (a real consumer), installed once into .cache/atif-venv-<versions> (or $AGENTSTREAM_ATIF_DIR/atif-venv-<versions>). Where Python >= 3.11 or
// PyPI is missing, atifPython() is undefined and the tests skip with a notice (as the OTLP tests do
// without Go); AGENTSTREAM_REQUIRE_ATIF=1 (CI) makes that a failure instead.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PINS = ["atif==1.8.0", "atif-scan==0.7.3"];
// AGENTSTREAM_ATIF_DIR: where the venvs live (CI points it at its source checkout's .cache, as AGENTSTREAM_OTELCOL_DIR).
const VENVS = process.env.AGENTSTREAM_ATIF_DIR ?? fileURLToPath(new URL("../../.cache/", import.meta.url));
const VENV = join(VENVS, `atif-venv-${PINS.join("-").replace(/=+/g, "")}`);
export const ATIF_CHECK = fileURLToPath(new URL("atif_check.py", import.meta.url));

export interface AtifPython {
  python: string;
  atifScan: string;
}

let cached: { tools?: AtifPython; why?: string } | undefined;

/** The venv's python and atif-scan, installed if missing; undefined (with a notice on stderr) where it cannot be. */
export function atifPython(): AtifPython | undefined {
  cached ??= prepare();
  if (cached.tools) return cached.tools;
  const notice = `ATIF checks skipped: ${cached.why} (AGENTSTREAM_REQUIRE_ATIF=1 makes this a failure)`;
  if (process.env.AGENTSTREAM_REQUIRE_ATIF === "1") throw new Error(notice);
  process.stderr.write(`${notice}\n`);
  return undefined;
}

function prepare(): { tools?: AtifPython; why?: string } {
  const tools = { python: join(VENV, "bin", "python"), atifScan: join(VENV, "bin", "atif-scan") };
  const works = () =>
    existsSync(tools.atifScan) && spawnSync(tools.python, ["-c", "import atif, atif_scan"]).status === 0;
  if (works()) return { tools };
  const version = spawnSync("python3", ["-c", "import sys; sys.exit(sys.version_info < (3, 11))"]);
  if (version.error || version.status !== 0) return { why: "python3 >= 3.11 not found" };
  rmSync(VENV, { recursive: true, force: true });
  const venv = spawnSync("python3", ["-m", "venv", VENV], { encoding: "utf8" });
  if (venv.status !== 0) return { why: `python3 -m venv failed: ${venv.stderr.trim().slice(-300)}` };
  const pip = spawnSync(join(VENV, "bin", "pip"), ["install", "--quiet", ...PINS], { encoding: "utf8" });
  if (pip.status !== 0 || !works())
    return { why: `pip install ${PINS.join(" ")} failed: ${pip.stderr.trim().slice(-300)}` };
  return { tools };
}
