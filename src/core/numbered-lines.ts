import { LineSplitter, type Line, type LineSplitterOptions } from "./line-splitter.js";

const NEWLINE = 0x0a;

/**
 * LineSplitter's framing, with each line's 1-based number in the input
 * (blank lines are skipped but still counted), so problems point at the line
 * an editor shows.
 */
export class NumberedLineSplitter {
  private newlines = 0;
  private readonly splitter: LineSplitter;

  constructor(onLine: (line: Line, number: number) => void, options: LineSplitterOptions = {}) {
    // The splitter hands a line on when it meets its "\n", before that "\n" is counted below.
    this.splitter = new LineSplitter((line) => onLine(line, this.newlines + 1), options);
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl + 1;
      this.splitter.push(chunk.subarray(start, end));
      if (nl !== -1) this.newlines++;
      start = end;
    }
  }

  /** The number of the line being read where it is already longer than the cap (its end not read yet). */
  get overlongLine(): number | undefined {
    return this.splitter.overlongSoFar ? this.newlines + 1 : undefined;
  }

  end(): void {
    this.splitter.end();
  }
}
