// `npm run test:live [-- --latest] [vitest args]`: the live suite; --latest also
// runs each backend's newest release beside its pin (AGENTSTREAM_LIVE_VERSIONS=latest).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const latest = args.includes("--latest");
const env = { ...process.env, ...(latest ? { AGENTSTREAM_LIVE_VERSIONS: "latest" } : {}) };
const vitest = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));
const child = spawn(
  process.execPath,
  [vitest, "run", "--config", "test/live/vitest.config.ts", ...args.filter((a) => a !== "--latest")],
  { stdio: "inherit", env },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal === "SIGINT" ? 130 : 143);
});
