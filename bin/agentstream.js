#!/usr/bin/env node
// The built CLI lives in dist/; a checkout that was cleaned (or is rebuilding) has none: say so plainly,
// and what to run: a fresh clone has no node_modules either, so `npm run build` alone fails (tsc: not found).
const entry = new URL("../dist/cli/main.js", import.meta.url);
let cli;
try {
  cli = await import(entry.href);
} catch (err) {
  if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes(entry.pathname)) throw err;
  const { existsSync } = await import("node:fs");
  const root = new URL("..", import.meta.url).pathname;
  const installed = existsSync(new URL("../node_modules/typescript/package.json", import.meta.url));
  const steps = installed ? "`npm run build`" : "`npm install && npm run build`";
  process.stderr.write(`agentstream: not built: ${entry.pathname} is missing\nhint: run ${steps} in ${root}\n`);
  process.exit(1);
}
await cli.main(process.argv);
