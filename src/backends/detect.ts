import type { BackendDetector, NativeEvent, Verdict } from "../core/translator.js";
import type { AcpFacet, MemberDetector, StreamFacet } from "./definition.js";

/** What telling a stream's backend apart reads of a backend: its stream facet, and whether it is driven over ACP. */
type Detectable = StreamFacet & Pick<AcpFacet, "transport">;

/**
 * Tells the backend from what a stream carries, one event at a time: the
 * protocol shows in the first event of a type only it writes (the registry's
 * order breaks ties), or in an event its protocol claims by content; backends that share a protocol (pi and Atomic) are then
 * told apart by that protocol's own MemberDetector.
 */
export class ContentDetector implements BackendDetector {
  private family: Detectable | undefined;
  private members: MemberDetector | undefined;
  private verdict: Verdict | undefined;
  /** The backend a type it shares with other formats pointed to: the guess when nothing decides. */
  private hint: Detectable | undefined;
  private readonly seen = new Set<string>();
  canonicalEvents = 0;

  constructor(
    private readonly backends: readonly Detectable[],
    /** The guess for a stream that shows no known event at all. */
    private readonly fallback: Detectable,
  ) {}

  get decided(): Verdict | undefined {
    return this.verdict;
  }

  get showedNative(): boolean {
    return this.family !== undefined || this.hint !== undefined;
  }

  get protocolFamily(): string | undefined {
    return this.family?.protocol;
  }

  get typesSeen(): readonly string[] {
    return [...this.seen];
  }

  see(event: NativeEvent): Verdict | undefined {
    if (this.verdict) return this.verdict;
    if (!this.family) {
      // agentstream's own output shares type names ("error") with backends: it decides nothing.
      if (isCanonical(event)) {
        this.canonicalEvents++;
        return undefined;
      }
      if (this.seen.size < TYPES_KEPT) this.seen.add(event.type);
      const family = protocolOwner(this.backends, event);
      if (!family) return undefined;
      // "error", "text": other formats write these too; only the protocol's own fields make them its own.
      if (family.sharedTypes?.has(event.type) && !family.ownShape?.(event)) {
        this.hint ??= family;
        return undefined;
      }
      this.family = family;
      // A backend driven over another's whole protocol (Qwen Code over ACP) is never told by content.
      const members = this.backends.filter((b) => b.protocol === family.protocol && b.transport === undefined);
      if (members.length === 1) return this.decide(family.name);
      this.members = family.tellApart?.();
      if (!this.members) return undefined;
    }
    const backend = this.members?.see(event);
    return backend === undefined ? undefined : this.decide(backend);
  }

  guess(ended: boolean): Verdict {
    if (this.verdict) return this.verdict;
    const backend = this.family ? (this.members?.guess(ended) ?? this.family.name) : (this.hint ?? this.fallback).name;
    return { backend, detection: "guessed" };
  }

  private decide(backend: string): Verdict {
    return (this.verdict = { backend, detection: "detected" });
  }
}

// How many distinct native types a guess names.
const TYPES_KEPT = 5;

/**
 * The backend whose protocol this native event is: one that claims it by its content (a type
 * another protocol writes too), else the first (in the registry's order) that writes its type.
 */
export function protocolOwner<B extends Detectable>(backends: readonly B[], event: NativeEvent): B | undefined {
  return backends.find((b) => b.claims?.(event)) ?? backends.find((b) => b.nativeTypes?.has(event.type));
}

function isCanonical(e: NativeEvent): boolean {
  return e.v === 1 && typeof e.seq === "number" && typeof e.run_id === "string";
}
