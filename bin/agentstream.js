#!/usr/bin/env node
// The built CLI lives in dist/; a checkout that was cleaned (or is rebuilding) has none: say so plainly.
const entry = new URL("../dist/cli/main.js", import.meta.url);
let cli;
try {
  cli = await import(entry.href);
} catch (err) {
  if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes(entry.pathname)) throw err;
  const root = new URL("..", import.meta.url).pathname;
  process.stderr.write(
    `agentstream: not built: ${entry.pathname} is missing\nhint: run \`npm run build\` in ${root}\n`,
  );
  process.exit(1);
}
await cli.main(process.argv);
