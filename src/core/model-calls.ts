import { draft, type Draft } from "./translator.js";

/**
 * The canonical turn: one model call and the tool calls it asked for. Backends
 * whose stream marks no such unit (Claude Code, Codex) tell this where a call
 * begins; it numbers them and closes the one before.
 */
export class ModelCalls {
  private turn = 0;
  private open = false;

  get isOpen(): boolean {
    return this.open;
  }

  /** A model call begins: the open one is completed first. */
  begin(meta: { native?: string } = {}): Draft[] {
    const out = this.end();
    this.open = true;
    out.push(draft("turn.started", { turn: ++this.turn }, meta.native ? { native: meta.native } : { synthetic: true }));
    return out;
  }

  /** The open call (if any) is done. */
  end(meta: { native?: string; stopReason?: string } = {}): Draft[] {
    if (!this.open) return [];
    this.open = false;
    const payload = meta.stopReason ? { turn: this.turn, stop_reason: meta.stopReason } : { turn: this.turn };
    return [draft("turn.completed", payload, meta.native ? { native: meta.native } : { synthetic: true })];
  }
}
