// Reading a file an option names (--prompt-file, --output-schema, --continue-from, --usage-file,
// normalize --stderr) or a backend left (its usage file): never more than a bound, and never in a way a
// stop signal cannot end. Whatever the path is: a FIFO no one writes to, /dev/zero, a terminal, a directory.
import { close, constants, fstat, open, read, type Stats } from "node:fs";
import { promisify } from "node:util";
import { Socket } from "node:net";
import type { Readable } from "node:stream";
import { isatty, ReadStream } from "node:tty";
import { fileErrorReason } from "../core/file-errors.js";
import { NO_STOPS, type StopSignal, type StopWatch } from "./stop-signals.js";

export interface BoundedReading {
  /** The most bytes taken: one more and the file is refused as too large. */
  bound: number;
  /** Only a regular file (what another program left: a FIFO or a device there is refused, never read). */
  regularOnly?: boolean;
  /** A symbolic link is refused, not followed. */
  noFollow?: boolean;
  /** A stop signal abandons the reading (the CLI's stop signals before anything started). */
  stops?: StopWatch;
  /** Bytes asked of each read of a regular file or a device (default 64 KiB). */
  chunkBytes?: number;
}

/** Why a file was not read, in words that follow its name ("--output-schema FILE: it is a directory"). */
export interface FileRefusal {
  why: "missing" | "unreadable" | "directory" | "not_regular" | "link" | "too_large";
  problem: string;
}

/** How a reading ended: every byte handed on (`bytes` of them), refused (nothing more handed on), or stopped. */
export type BoundedRead = { bytes: number } | { refused: FileRefusal } | { stopped: StopSignal };

/** The file's bytes, whole (at most `bound`), or why not. */
export type WholeFile = { text: Buffer } | { refused: FileRefusal } | { stopped: StopSignal };

const CHUNK_BYTES = 64 * 1024;

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
const readAsync = (fd: number, buffer: Buffer, offset: number, length: number, position: null): Promise<number> =>
  new Promise((resolve, reject) =>
    read(fd, buffer, offset, length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );

/** The most of a recording read (--continue-from's stream, normalize --stderr): past it, it is refused. */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/** "4194304 bytes (4 MiB)": a bound as the messages and docs/commands.md say it. */
function boundSaid(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 ** 3, "GiB"],
    [1024 ** 2, "MiB"],
    [1024, "KiB"],
  ];
  const unit = units.find(([size]) => bytes >= size && bytes % size === 0);
  return unit ? `${bytes} bytes (${bytes / unit[0]} ${unit[1]})` : `${bytes} bytes`;
}

function tooLarge(bound: number): FileRefusal {
  return { why: "too_large", problem: `it is larger than ${boundSaid(bound)}, the most agentstream reads of it` };
}

/** The whole file, up to the bound. */
export async function readWholeFile(path: string, reading: BoundedReading): Promise<WholeFile> {
  const chunks: Buffer[] = [];
  const read = await readFileBounded(path, reading, (chunk) => chunks.push(chunk));
  return "bytes" in read ? { text: Buffer.concat(chunks) } : read;
}

/**
 * Hand each chunk of the file to `onChunk` until its end, the bound (then refused: too large), or a stop
 * signal. A FIFO, a socket or a terminal is opened without waiting for a writer and read as the event
 * loop hears it has data, so nothing blocks and a signal is heard meanwhile; a regular file or another
 * device is read a chunk at a time.
 */
export async function readFileBounded(
  path: string,
  reading: BoundedReading,
  onChunk: (chunk: Buffer) => void,
): Promise<BoundedRead> {
  const stops = reading.stops ?? NO_STOPS;
  if (stops.signal) return { stopped: stops.signal };
  const stopped = new Stopped(stops);
  // Raw descriptors, not FileHandles: a FIFO's is handed to a socket, which closes it.
  const opening = openAsync(
    path,
    constants.O_RDONLY | constants.O_NONBLOCK | (reading.noFollow ? constants.O_NOFOLLOW : 0),
  );
  let fd: number | undefined;
  try {
    const opened = await stopped.race(
      opening.then(
        (h) => ({ fd: h }),
        (err: NodeJS.ErrnoException) => ({ err }),
      ),
    );
    if ("stopped" in opened) {
      // The open may still finish: its descriptor is closed then.
      void opening.then((late) => close(late, () => {})).catch(() => {});
      return opened;
    }
    if ("err" in opened) return { refused: openRefusal(opened.err, reading.noFollow) };
    fd = opened.fd;
    const stats = await fstatAsync(fd);
    if (stats.isDirectory()) return { refused: { why: "directory", problem: "it is a directory" } };
    if (reading.regularOnly && !stats.isFile())
      return { refused: { why: "not_regular", problem: `it is ${kindOf(stats)}, not a regular file` } };
    if (stats.isFile() && stats.size > reading.bound) return { refused: tooLarge(reading.bound) };
    const stream = streamOf(fd, stats);
    if (stream) {
      // The stream owns the descriptor from here: it closes it.
      fd = undefined;
      return await readStreamBounded(stream, reading.bound, stops, onChunk);
    }
    return await readChunks(fd, reading, stopped, onChunk);
  } catch (err) {
    return { refused: openRefusal(err as NodeJS.ErrnoException) };
  } finally {
    stopped.end();
    if (fd !== undefined) close(fd, () => {});
  }
}

/**
 * A stream (stdin, a FIFO) read to its end, the bound (refused: too large; the stream destroyed) or a
 * stop signal (the stream destroyed: a reading that waits on a writer is abandoned).
 */
export function readStreamBounded(
  stream: Readable,
  bound: number,
  stops: StopWatch,
  onChunk: (chunk: Buffer) => void,
): Promise<BoundedRead> {
  if (stops.signal) {
    stream.destroy();
    return Promise.resolve({ stopped: stops.signal });
  }
  return new Promise((resolve) => {
    let bytes = 0;
    let ended = false;
    const end = (how: BoundedRead): void => {
      if (ended) return;
      ended = true;
      unlisten();
      stream.removeListener("data", onData);
      if (!("bytes" in how)) stream.destroy();
      resolve(how);
    };
    const unlisten = stops.listen((signal) => end({ stopped: signal }));
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > bound) end({ refused: tooLarge(bound) });
      else onChunk(buffer);
    };
    stream.on("data", onData);
    stream.once("end", () => end({ bytes }));
    stream.once("error", (err: NodeJS.ErrnoException) =>
      end({ refused: { why: "unreadable", problem: fileErrorReason(err) } }),
    );
    // Destroyed by another (the reader of a stream that went away): what was read is all there is.
    stream.once("close", () => end({ bytes }));
  });
}

/** A regular file or a device that is not a terminal (/dev/zero, /dev/urandom): read a chunk at a time. */
async function readChunks(
  fd: number,
  reading: BoundedReading,
  stopped: Stopped,
  onChunk: (chunk: Buffer) => void,
): Promise<BoundedRead> {
  const size = Math.min(reading.chunkBytes ?? CHUNK_BYTES, reading.bound + 1);
  let bytes = 0;
  for (;;) {
    // Not raced with a stop signal: a read in flight is let finish (its descriptor closed after it), and
    // on a descriptor opened without blocking it finishes at once. The signal is heard between reads.
    if (stopped.signal) return { stopped: stopped.signal };
    // Each chunk its own: whoever it is handed to may keep it.
    const buffer = Buffer.allocUnsafe(size);
    let n: number;
    try {
      n = await readAsync(fd, buffer, 0, Math.min(buffer.length, reading.bound + 1 - bytes), null);
    } catch (err) {
      // A device with nothing to give yet, opened without waiting: asked again shortly.
      if ((err as NodeJS.ErrnoException).code === "EAGAIN") {
        const waited = await stopped.race(
          new Promise<{ waited: true }>((r) => setTimeout(() => r({ waited: true }), 20)),
        );
        if ("stopped" in waited) return waited;
        continue;
      }
      return { refused: { why: "unreadable", problem: fileErrorReason(err as NodeJS.ErrnoException) } };
    }
    if (n === 0) return { bytes };
    bytes += n;
    if (bytes > reading.bound) return { refused: tooLarge(reading.bound) };
    onChunk(buffer.subarray(0, n));
  }
}

/**
 * A FIFO, socket or terminal as a stream the event loop reads, so that nothing blocks a thread on a writer
 * that may never come (undefined: read it a chunk at a time). The descriptor is the stream's from here.
 */
export function streamOf(fd: number, stats: Stats): Readable | undefined {
  if (stats.isFIFO() || stats.isSocket()) return new Socket({ fd, readable: true, writable: false });
  if (stats.isCharacterDevice() && isatty(fd)) return new ReadStream(fd);
  return undefined;
}

/** A stop signal as something a step can be raced with. */
class Stopped {
  private readonly heard: Promise<{ stopped: StopSignal }>;
  private readonly unlisten: () => void;
  private first: StopSignal | undefined;

  constructor(stops: StopWatch) {
    let hear: (signal: StopSignal) => void = () => {};
    this.heard = new Promise((resolve) => {
      hear = (signal) => resolve({ stopped: signal });
    });
    this.unlisten = stops.listen((signal) => {
      this.first ??= signal;
      hear(signal);
    });
  }

  get signal(): StopSignal | undefined {
    return this.first;
  }

  race<T>(step: Promise<T>): Promise<T | { stopped: StopSignal }> {
    return Promise.race([step, this.heard]);
  }

  end(): void {
    this.unlisten();
  }
}

function openRefusal(err: NodeJS.ErrnoException, noFollow = false): FileRefusal {
  if (err.code === "ELOOP" && noFollow) return { why: "link", problem: "it is a symbolic link" };
  switch (err.code) {
    case "ENOENT":
      return { why: "missing", problem: fileErrorReason(err) };
    case "EISDIR":
      return { why: "directory", problem: fileErrorReason(err) };
    default:
      return { why: "unreadable", problem: fileErrorReason(err) };
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "something else";
}
