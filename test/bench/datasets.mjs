// The native streams the bench reads: made by the shared stream generator
// once, kept in a git-ignored cache, and made again when the generator changes.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { fileURLToPath } from "node:url";

const GENERATOR = fileURLToPath(new URL("../fixtures/generate-stream.mjs", import.meta.url));
const streamModule = (protocol) => fileURLToPath(new URL(`../fixtures/streams/${protocol}.mjs`, import.meta.url));
// AGENTSTREAM_BENCH_CACHE_DIR moves it (the test suite uses a temporary one, so npm test leaves none behind).
export const CACHE_DIR = process.env.AGENTSTREAM_BENCH_CACHE_DIR
  ? `${process.env.AGENTSTREAM_BENCH_CACHE_DIR.replace(/\/$/, "")}/`
  : fileURLToPath(new URL("../../.cache/bench/", import.meta.url));

/** The generator and the protocol's own module: a change to another protocol's lines keeps this one's stream. */
function generatorHash(protocol) {
  return createHash("sha256")
    .update(readFileSync(GENERATOR))
    .update(readFileSync(streamModule(protocol)))
    .digest("hex")
    .slice(0, 16);
}

/** Native events: lines that are not empty (the generator may write a blank one). */
async function countLines(path) {
  let lines = 0;
  let lineHasBytes = false;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (lineHasBytes || nl > start) lines++;
      lineHasBytes = false;
      start = nl + 1;
    }
    if (start < chunk.length) lineHasBytes = true;
  }
  return lines + (lineHasBytes ? 1 : 0);
}

function generate(protocol, megabytes, path) {
  return new Promise((resolve, reject) => {
    const fd = openSync(path, "w");
    const child = spawn(process.execPath, [GENERATOR, protocol, String(megabytes)], {
      stdio: ["ignore", fd, "inherit"],
    });
    child.on("error", reject);
    child.on("close", (code) => {
      closeSync(fd);
      if (code === 0) resolve();
      else reject(new Error(`stream generator exited with ${code}`));
    });
  });
}

/** { path, bytes, lines } of a cached native stream of about `megabytes` MB. */
export async function nativeStream(protocol, megabytes, log) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = `${CACHE_DIR}${protocol}-${megabytes}mb.jsonl`;
  const metaPath = `${path}.meta.json`;
  const hash = generatorHash(protocol);
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    if (meta.generator === hash) return { path, bytes: meta.bytes, lines: meta.lines };
  }
  log(`generating ${protocol} stream of ${megabytes} MB into ${path} ...`);
  await generate(protocol, megabytes, `${path}.part`);
  renameSync(`${path}.part`, path);
  const lines = await countLines(path);
  const bytes = statSync(path).size;
  writeFileSync(metaPath, JSON.stringify({ generator: hash, bytes, lines }));
  return { path, bytes, lines };
}

// Issue 19: EvoScientist may send every tool_call with "id": "". Pairing them
// once copied the whole queue per call (40,000 calls: 44 s); kept here so a
// slow path for calls without ids shows in the figures.
const EMPTY_ID_VERSION = 1;

/** { path, bytes, lines } of a cached EvoScientist stream of `calls` tool_call lines with an empty id, then their results and done. */
export async function emptyIdStream(calls, log) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = `${CACHE_DIR}evosci-empty-ids-${calls}.jsonl`;
  const metaPath = `${path}.meta.json`;
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    if (meta.version === EMPTY_ID_VERSION) return { path, bytes: meta.bytes, lines: meta.lines };
  }
  log(`generating an EvoScientist stream of ${calls} calls without ids into ${path} ...`);
  const out = createWriteStream(`${path}.part`);
  const write = async (line) => {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  for (let i = 0; i < calls; i++)
    await write(`{"type": "tool_call", "name": "execute", "args": {"command": "echo ${i}"}, "id": ""}`);
  for (let i = 0; i < calls; i++)
    await write(`{"type": "tool_result", "name": "execute", "content": "${i}", "success": true, "id": ""}`);
  await write(`{"type": "done", "content": "ran ${calls} commands", "response": "ran ${calls} commands"}`);
  out.end();
  await once(out, "close");
  renameSync(`${path}.part`, path);
  const lines = 2 * calls + 1;
  const bytes = statSync(path).size;
  writeFileSync(metaPath, JSON.stringify({ version: EMPTY_ID_VERSION, bytes, lines }));
  return { path, bytes, lines };
}
