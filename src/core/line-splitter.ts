/** What the splitter hands on: a whole line, or the start of one that was too long to keep. */
export type Line = { text: string } | { overlong: true; preview: string; bytes: number };

export interface LineSplitterOptions {
  /** Longest line kept whole, in bytes; the rest of a longer line is skipped, not buffered. */
  maxLineBytes?: number;
  /** How much of an overlong line is kept as its preview. */
  previewBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * JSONL framing: splits on "\n" only (never on U+2028/U+2029 or a lone "\r",
 * which JSON strings may hold), strips one trailing "\r", decodes UTF-8 per
 * whole line (so a character split across chunks survives), drops one UTF-8
 * BOM at the start of the stream, skips blank lines and keeps a last line that
 * has no "\n".
 */
export class LineSplitter {
  private readonly maxLineBytes: number;
  private readonly previewBytes: number;
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private overlong: { preview: Buffer; bytes: number } | undefined;
  private atStart = true;

  constructor(
    private readonly onLine: (line: Line) => void,
    options: LineSplitterOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.previewBytes = Math.min(options.previewBytes ?? 1024, this.maxLineBytes);
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      if (this.partsBytes === 0 && !this.overlong && nl - start <= this.maxLineBytes) {
        // The usual case, a whole line inside this chunk: decoded straight from it.
        this.emitText(chunk, start, nl);
      } else {
        this.keep(chunk.subarray(start, nl));
        this.emit();
      }
      start = nl + 1;
    }
  }

  /** The line being read is already longer than maxLineBytes (its end not read yet). */
  get overlongSoFar(): boolean {
    return this.overlong !== undefined;
  }

  /** The input ended: hand on a last line that had no "\n". */
  end(): void {
    if (this.partsBytes > 0 || this.overlong) this.emit();
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.overlong) {
      this.overlong.bytes += piece.length;
      return;
    }
    if (this.partsBytes + piece.length > this.maxLineBytes) {
      const held = Buffer.concat([...this.parts, piece], this.partsBytes + piece.length);
      this.overlong = { preview: held.subarray(0, this.previewBytes), bytes: held.length };
      this.parts = [];
      this.partsBytes = 0;
      return;
    }
    this.parts.push(piece);
    this.partsBytes += piece.length;
  }

  private emit(): void {
    if (this.overlong) {
      const { preview, bytes } = this.overlong;
      this.overlong = undefined;
      // Cut at a character boundary: drop a trailing partial UTF-8 sequence.
      this.onLine({ overlong: true, preview: decodeWhole(preview.subarray(this.afterBom(preview, 0))), bytes });
      return;
    }
    const buf = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsBytes);
    this.parts = [];
    this.partsBytes = 0;
    this.emitText(buf, 0, buf.length);
  }

  /** Hands on bytes start..end of `buf` as a line: one trailing "\r" dropped, blank lines skipped. */
  private emitText(buf: Buffer, start: number, end: number): void {
    start = this.afterBom(buf, start);
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return;
    const text = buf.toString("utf8", start, end);
    if (BLANK.test(text)) return;
    this.onLine({ text });
  }

  /** Where a line starts: past one UTF-8 BOM when it is the stream's first line and opens with one. */
  private afterBom(buf: Buffer, start: number): number {
    if (!this.atStart) return start;
    this.atStart = false;
    return buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf ? start + 3 : start;
  }
}

function decodeWhole(buf: Buffer): string {
  let end = buf.length;
  // Walk back over continuation bytes to the lead byte of the last character.
  let i = end - 1;
  while (i >= 0 && i > end - 4 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i >= 0) {
    const lead = buf[i]!;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - i < need) end = i;
  }
  return buf.subarray(0, end).toString("utf8");
}

// Whitespace as String.prototype.trim sees it (U+2028, U+3000 and the BOM included);
// the match stops at the first other character, so a long line costs nothing.
const BLANK = /^\s*$/;
