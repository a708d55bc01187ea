import ora, { type Ora } from "ora";

const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";

/**
 * ora's spinner on stderr, driven from here rather than by ora.start():
 * start() replaces process.stdout.write and process.stderr.write, which loops
 * forever through the redacting stderr and cannot keep a corked stdout's lines
 * clear of the frame anyway. Every stderr line goes through print(): the frame
 * is cleared, the line written, the frame drawn again below it.
 */
export class Spinner {
  private readonly ora: Ora;
  private timer: NodeJS.Timeout | undefined;
  // However the process ends (an uncaught error included), the cursor comes back.
  private readonly showCursor = (): void => {
    this.stream.write(SHOW_CURSOR);
  };

  constructor(
    private readonly stream: NodeJS.WriteStream,
    colour: boolean,
  ) {
    // discardStdin: false keeps the terminal's Ctrl-C a SIGINT (ora would put stdin in raw mode).
    this.ora = ora({ stream, discardStdin: false, hideCursor: false, isEnabled: true, color: colour ? "cyan" : false });
  }

  start(): void {
    if (this.timer) return;
    this.stream.write(HIDE_CURSOR);
    process.once("exit", this.showCursor);
    this.ora.render();
    this.timer = setInterval(() => this.ora.render(), this.ora.interval);
    // The run's end stops it; it never holds the process open by itself.
    this.timer.unref();
  }

  /** The text beside the frame, cut to one terminal line (a wrapped frame is cleared badly after a resize). */
  setText(text: string): void {
    const width = Math.max(10, (this.stream.columns ?? 80) - 3);
    const shown = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    if (shown === this.ora.text) return;
    this.ora.text = shown;
    // Drawn now rather than at the next frame (only on a change: deltas come fast).
    if (this.timer) this.ora.render();
  }

  /** Write text (whole lines) above the frame. */
  print(text: string): void {
    if (this.timer) this.ora.clear();
    this.stream.write(text);
    if (this.timer) this.ora.render();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.ora.clear();
    process.off("exit", this.showCursor);
    this.showCursor();
  }
}
