import { capLine } from "./native-line.js";

/**
 * Keeps the last lines of a byte stream (a backend's stderr) within fixed
 * bounds, however much the stream says.
 */
export class TailBuffer {
  private lines: string[] = [];
  private partial = "";
  private readonly decoder = new TextDecoder("utf-8");

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineChars = 1000,
    /** Hides secrets in a line before it is cut: a secret cut in two is found by no redactor after. */
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + (typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true }));
    const parts = text.split("\n");
    this.partial = capLine(parts.pop() ?? "", this.maxLineChars * 2);
    for (const part of parts.slice(-this.maxLines)) this.add(part);
  }

  /** The kept lines, oldest first, with a last line that had no newline. */
  snapshot(): string[] {
    const lines = this.partial ? [...this.lines, this.partial] : [...this.lines];
    return lines.slice(-this.maxLines).map((l) => capLine(this.redact(l), this.maxLineChars));
  }

  private add(line: string): void {
    this.lines.push(capLine(this.redact(line.endsWith("\r") ? line.slice(0, -1) : line), this.maxLineChars));
    if (this.lines.length > this.maxLines) this.lines.shift();
  }
}
