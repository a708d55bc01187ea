// The native streams the bench reads: made by the shared stream generator
// once, kept in a git-ignored cache, and made again when the generator changes.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const GENERATOR = fileURLToPath(new URL("../fixtures/generate-stream.mjs", import.meta.url));
export const CACHE_DIR = fileURLToPath(new URL("../../.cache/bench/", import.meta.url));

function generatorHash() {
  return createHash("sha256").update(readFileSync(GENERATOR)).digest("hex").slice(0, 16);
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
    const child = spawn(process.execPath, [GENERATOR, protocol, String(megabytes)], { stdio: ["ignore", fd, "inherit"] });
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
  const hash = generatorHash();
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
