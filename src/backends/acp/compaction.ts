import { asText, nonEmpty, objectOrEmpty } from "../../core/fields.js";
import { clip } from "../../core/clip.js";
import { draft, type Draft } from "../../core/translator.js";

/** A compaction's summary is kept up to this many characters (it is told once, in compaction.completed). */
const MAX_SUMMARY = 64 * 1024;
/** Compactions followed at once; past this the oldest open one is forgotten (its end is then kept as data). */
const MAX_OPEN = 64;
/** Ended compactions remembered, so that a later patch of one is kept as data rather than started anew. */
const MAX_ENDED = 256;
/** ACP's statuses that end a compaction; `_`-prefixed and future ones do not. */
const ENDED = new Set(["completed", "failed", "cancelled"]);

/**
 * ACP's context compaction updates (v1 schema, sent only to a client that declares `session.compaction`):
 * `compaction_update` (an upsert by compactionId: status in_progress, completed, failed or cancelled, a summary
 * replaced whole, an error) and `compaction_summary_chunk` (a block appended to the summary). The first sight
 * of an id is `compaction.started`; its first ending status is `compaction.completed` with the summary's text,
 * `error` where it failed and `aborted` where it was cancelled. A patch after the end, and a status this
 * version does not know, is kept as data (undefined: the caller keeps the update whole).
 */
export class AcpCompactions {
  private readonly open = new Map<string, { summary: string }>();
  private readonly ended = new Set<string>();

  update(kind: string, update: Record<string, unknown>, native: string): Draft[] | undefined {
    const id = nonEmpty(update.compactionId);
    if (id === undefined || this.ended.has(id)) return undefined;
    if (kind === "compaction_summary_chunk") {
      const started = this.start(id, native);
      const open = this.open.get(id)!;
      open.summary = clip(open.summary + blockText(update.content), MAX_SUMMARY);
      return started;
    }
    const status = asText(update.status);
    const out = this.start(id, native);
    const open = this.open.get(id)!;
    // Patch semantics: omitted leaves the summary, null or [] clears it, blocks replace it.
    if (update.summary === null) open.summary = "";
    else if (Array.isArray(update.summary)) open.summary = clip(update.summary.map(blockText).join(""), MAX_SUMMARY);
    if (!ENDED.has(status)) return out.length > 0 || status === "in_progress" ? out : undefined;
    this.open.delete(id);
    this.ended.add(id);
    if (this.ended.size > MAX_ENDED) this.ended.delete(this.ended.values().next().value!);
    const error = status === "failed" ? (nonEmpty(update.error) ?? "the compaction failed") : undefined;
    out.push(
      draft(
        "compaction.completed",
        {
          ...(open.summary !== "" ? { summary: open.summary } : {}),
          ...(error !== undefined ? { error } : {}),
          ...(status === "cancelled" ? { aborted: true } : {}),
        },
        { native },
      ),
    );
    return out;
  }

  /** compaction.started for an id first seen (none for one already open). */
  private start(id: string, native: string): Draft[] {
    if (this.open.has(id)) return [];
    this.open.set(id, { summary: "" });
    if (this.open.size > MAX_OPEN) this.open.delete(this.open.keys().next().value!);
    return [draft("compaction.started", {}, { native })];
  }
}

/** A content block's text (a text block's; other blocks carry none). */
function blockText(content: unknown): string {
  const block = objectOrEmpty(content);
  return block.type === "text" ? asText(block.text) : "";
}
