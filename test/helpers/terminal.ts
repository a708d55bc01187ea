import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;

let sessions = 0;

/**
 * A real terminal (a tmux pane, 100×40 unless told) running one shell script
 * in `dir`. Each gets a tmux server of its own (-L), so tests in parallel never
 * share one. screen() reads what the terminal shows, wrapped lines joined.
 */
export class Terminal {
  private readonly socket = `agentstream-test-${process.pid}-${++sessions}`;
  private readonly marker: string;

  constructor(dir: string, script: string, options: { width?: number; height?: number } = {}) {
    const file = join(dir, `${this.socket}.sh`);
    this.marker = join(dir, `${this.socket}.exit`);
    // The exit status lands in the marker once the script is done; the pane stays open to be read.
    // A Ctrl-C reaches the shell too: trapped (not ignored, which its children would inherit), it carries on.
    writeFileSync(
      file,
      `trap true INT\n${script}\necho $? > ${this.marker}.tmp && mv ${this.marker}.tmp ${this.marker}\nexec sleep 999\n`,
    );
    this.tmux(
      "new-session",
      "-d",
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 40),
      `sh ${file}`,
    );
  }

  /** Everything the pane shows and has scrolled by, trailing blank lines dropped. */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-").replace(/\s+$/, "");
  }

  /** Poll until `condition` holds for the screen; the bound is only a guard. */
  async waitForScreen(condition: (screen: string) => boolean, what: string): Promise<string> {
    // A script that has ended will not show it later: no need to wait out the guard.
    const ended = (): boolean => existsSync(this.marker) && !condition(this.screen());
    await until(
      () => ended() || condition(this.screen()),
      () => `${what}; the screen:\n${this.screen()}`,
    );
    if (!condition(this.screen())) throw new Error(`${what} (the script has ended); the screen:\n${this.screen()}`);
    return this.screen();
  }

  /** Resolves with the script's exit status once it has ended. */
  async exited(): Promise<number> {
    await until(
      () => existsSync(this.marker) || !this.alive(),
      () => `the script did not end; the screen:\n${this.screen()}`,
    );
    if (!existsSync(this.marker)) throw new Error("the terminal closed before the script's end (did the shell die?)");
    return Number(readFileSync(this.marker, "utf8"));
  }

  /** Whether the terminal shows its cursor. */
  cursorVisible(): boolean {
    return this.tmux("display-message", "-p", "#{cursor_flag}").trim() === "1";
  }

  /** Type keys, as tmux names them ("C-c"). */
  keys(...keys: string[]): void {
    this.tmux("send-keys", ...keys);
  }

  private alive(): boolean {
    return spawnSync("tmux", ["-L", this.socket, "has-session"]).status === 0;
  }

  close(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }
}

async function until(condition: () => boolean, failure: () => string): Promise<void> {
  const guard = Date.now() + 45_000;
  while (!condition()) {
    if (Date.now() > guard) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A value for a shell script: single-quoted. */
export function sh(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
