import { readSync, writeSync } from "node:fs";
import type { Context, HrTime, SpanContext } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { fileErrorReason } from "../core/file-errors.js";
import { makeTempFile, removeTempFile, type TempFile } from "../core/temp-files.js";
import { folderProblem, tempFolder, tempFolderAsSet } from "../core/temp-folder.js";

// A batch span processor that never drops a span nor holds a long run in
// memory: spans wait in memory up to a bound; past it (a burst faster than the
// collector takes them) they are written to a temporary file, and the sender
// reads them back from there, one batch at a time, in the order they ended.
// Nothing the run does ever waits for it.

export interface SpillOptions {
  /** Spans kept in memory before the rest go to the file. */
  memorySpans?: number;
  /** Spans per export request. */
  batchSize?: number;
  /** How long a partial batch waits for more spans before it is sent. */
  delayMs?: number;
  /** What to keep of a span that is written to the file besides its data (whose run it is), and how to put it back. */
  carry?: { save(span: ReadableSpan): number; load(span: ReadableSpan, saved: number): void };
}

/** A span as one line of the file: its data, without the resource (the provider's, the same for all). */
interface SpilledSpan {
  n: string;
  k: number;
  c: { t: string; s: string; f: number };
  p?: { t: string; s: string; f: number; r?: boolean };
  st: HrTime;
  et: HrTime;
  d: HrTime;
  s: { code: number; message?: string };
  a: ReadableSpan["attributes"];
  l: { c: { t: string; s: string; f: number }; a?: ReadableSpan["attributes"] }[];
  e: ReadableSpan["events"];
  i: { name: string; version?: string; schemaUrl?: string };
  da: number;
  de: number;
  dl: number;
  o?: number;
}

/** The temporary file spans wait in: where writing and reading are, and the line being read. */
interface SpillFile {
  temp: TempFile;
  fd: number;
  written: number;
  read: number;
  lines: number;
  /** What was read and not yet handed on, after the last line's end. */
  rest: Buffer;
  /** The start of a line longer than what one read gave, in pieces. */
  held: Buffer[];
}

const NEWLINE = 0x0a;
const READ_CHUNK = 256 * 1024;

const context = (c: SpanContext) => ({ t: c.traceId, s: c.spanId, f: c.traceFlags });
const revived = (c: { t: string; s: string; f: number; r?: boolean }): SpanContext => ({
  traceId: c.t,
  spanId: c.s,
  traceFlags: c.f,
  ...(c.r !== undefined ? { isRemote: c.r } : {}),
});

export class SpillingSpanProcessor implements SpanProcessor {
  private readonly memory: ReadableSpan[] = [];
  private readonly memorySpans: number;
  private readonly batchSize: number;
  private readonly delayMs: number;
  private file: SpillFile | undefined;
  private resource: ReadableSpan["resource"] | undefined;
  private sending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Spans that could not be kept at all (the file could not be written): counted as ended, never sent. */
  lost = 0;
  /** Why the first of them could not be kept (the temporary folder, named as the user set it). */
  lostBecause: string | undefined;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly options: SpillOptions = {},
  ) {
    this.memorySpans = options.memorySpans ?? 2048;
    this.batchSize = options.batchSize ?? 512;
    this.delayMs = options.delayMs ?? 200;
  }

  /** Spans ended and not yet handed to the exporter. */
  get waiting(): number {
    return this.memory.length + (this.file?.lines ?? 0);
  }

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.closed) return;
    this.resource ??= span.resource;
    // Once spans are in the file, the next ones follow them there: the order stays the order they ended.
    if (this.memory.length < this.memorySpans && !this.file?.lines) this.memory.push(span);
    else this.spill(span);
    this.schedule();
  }

  /** Sends everything waiting; resolves when the exporter has answered for all of it. */
  async forceFlush(): Promise<void> {
    while (this.waiting > 0 || this.sending !== undefined) {
      this.send();
      await this.sending;
    }
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.closed = true;
    this.removeFile();
    await this.exporter.shutdown();
  }

  /** Sends nothing more: what is waiting is dropped (the caller counts it as not sent) and the file removed. */
  abandon(): void {
    this.closed = true;
    this.memory.length = 0;
    this.removeFile();
  }

  private schedule(): void {
    if (this.sending !== undefined) return;
    if (this.waiting >= this.batchSize) {
      this.send();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, this.delayMs);
    this.timer.unref();
  }

  private send(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.sending !== undefined) return;
    this.sending = (async () => {
      for (let batch = this.take(); batch.length > 0; batch = this.take()) await this.exportBatch(batch);
    })().finally(() => {
      this.sending = undefined;
    });
  }

  private exportBatch(batch: ReadableSpan[]): Promise<ExportResult> {
    return new Promise((resolve) => {
      try {
        this.exporter.export(batch, resolve);
      } catch (error) {
        resolve({ code: ExportResultCode.FAILED, error: error as Error });
      }
    });
  }

  private take(): ReadableSpan[] {
    if (this.memory.length > 0) return this.memory.splice(0, this.batchSize);
    return this.file?.lines ? this.readBack(this.batchSize) : [];
  }

  private spill(span: ReadableSpan): void {
    try {
      this.file ??= this.openFile();
      const line = `${JSON.stringify(this.flatten(span))}\n`;
      const bytes = Buffer.from(line);
      writeSync(this.file.fd, bytes, 0, bytes.length, this.file.written);
      this.file.written += bytes.length;
      this.file.lines++;
    } catch (err) {
      this.lost++;
      this.lostBecause ??= `spans waiting past ${this.memorySpans} could not be kept in a temporary file: ${tempFolderAsSet()}: ${
        folderProblem(tempFolder()) ?? fileErrorReason(err as NodeJS.ErrnoException)
      }`;
    }
  }

  private openFile(): SpillFile {
    // Removed however the process ends, should it end before the spans are sent.
    const temp = makeTempFile("agentstream-spans", ".jsonl");
    return { temp, fd: temp.fd, written: 0, read: 0, lines: 0, rest: Buffer.alloc(0), held: [] };
  }

  /** Up to `count` spans from the file, in order; the file starts over once all it held is read. */
  private readBack(count: number): ReadableSpan[] {
    const file = this.file!;
    const spans: ReadableSpan[] = [];
    while (spans.length < count && file.lines > 0) {
      const line = this.nextLine(file);
      if (line === undefined) break;
      spans.push(this.revive(JSON.parse(line) as SpilledSpan));
      file.lines--;
    }
    if (file.lines === 0) this.removeFile();
    return spans;
  }

  /**
   * The file's next line, read on from where the last one ended. Each byte is
   * looked at once (a long line is held in pieces, joined when its end comes)
   * and decoded as a whole line (a character may be split between reads).
   */
  private nextLine(file: SpillFile): string | undefined {
    for (;;) {
      const newline = file.rest.indexOf(NEWLINE);
      if (newline >= 0) {
        const end = file.rest.subarray(0, newline);
        const line = file.held.length > 0 ? Buffer.concat([...file.held, end]) : end;
        file.held = [];
        file.rest = file.rest.subarray(newline + 1);
        return line.toString("utf8");
      }
      if (file.rest.length > 0) file.held.push(file.rest);
      const chunk = Buffer.allocUnsafe(READ_CHUNK);
      const read = readSync(file.fd, chunk, 0, chunk.length, file.read);
      if (read === 0) {
        file.rest = Buffer.alloc(0);
        return undefined;
      }
      file.read += read;
      file.rest = chunk.subarray(0, read);
    }
  }

  private removeFile(): void {
    if (!this.file) return;
    removeTempFile(this.file.temp);
    this.file = undefined;
  }

  private flatten(span: ReadableSpan): SpilledSpan {
    const parent = span.parentSpanContext;
    return {
      n: span.name,
      k: span.kind,
      c: context(span.spanContext()),
      ...(parent
        ? { p: { ...context(parent), ...(parent.isRemote !== undefined ? { r: parent.isRemote } : {}) } }
        : {}),
      st: span.startTime,
      et: span.endTime,
      d: span.duration,
      s: span.status,
      a: span.attributes,
      l: span.links.map((link) => ({ c: context(link.context), a: link.attributes })),
      e: span.events,
      i: span.instrumentationScope,
      da: span.droppedAttributesCount,
      de: span.droppedEventsCount,
      dl: span.droppedLinksCount,
      ...(this.options.carry ? { o: this.options.carry.save(span) } : {}),
    };
  }

  private revive(line: SpilledSpan): ReadableSpan {
    const ctx = revived(line.c);
    const span: ReadableSpan = {
      name: line.n,
      kind: line.k,
      spanContext: () => ctx,
      ...(line.p ? { parentSpanContext: revived(line.p) } : {}),
      startTime: line.st,
      endTime: line.et,
      duration: line.d,
      status: line.s,
      attributes: line.a,
      links: line.l.map((link) => ({ context: revived(link.c), ...(link.a ? { attributes: link.a } : {}) })),
      events: line.e,
      ended: true,
      resource: this.resource!,
      instrumentationScope: line.i,
      droppedAttributesCount: line.da,
      droppedEventsCount: line.de,
      droppedLinksCount: line.dl,
    };
    if (this.options.carry && line.o !== undefined) this.options.carry.load(span, line.o);
    return span;
  }
}
