import type { BackendDetector, NativeEvent, Verdict } from "../core/translator.js";
import type { BackendDefinition, MemberDetector } from "./definition.js";

/**
 * Tells the backend from what a stream carries, one event at a time: the
 * protocol shows in the first event of a type only it writes (the registry's
 * order breaks ties), or in an event its protocol claims by content; backends that share a protocol (pi and Atomic) are then
 * told apart by that protocol's own MemberDetector.
 */
export class ContentDetector implements BackendDetector {
  private family: BackendDefinition | undefined;
  private members: MemberDetector | undefined;
  private verdict: Verdict | undefined;
  canonicalEvents = 0;

  constructor(
    private readonly backends: readonly BackendDefinition[],
    /** The guess for a stream that shows no known event at all. */
    private readonly fallback: BackendDefinition,
  ) {}

  get decided(): Verdict | undefined {
    return this.verdict;
  }

  get showedNative(): boolean {
    return this.family !== undefined;
  }

  get protocolFamily(): string | undefined {
    return this.family?.protocol;
  }

  see(event: NativeEvent): Verdict | undefined {
    if (this.verdict) return this.verdict;
    if (!this.family) {
      // agentstream's own output shares type names ("error") with backends: it decides nothing.
      if (isCanonical(event)) {
        this.canonicalEvents++;
        return undefined;
      }
      const family = protocolOwner(this.backends, event);
      if (!family) return undefined;
      this.family = family;
      if (this.backends.filter((b) => b.protocol === family.protocol).length === 1) return this.decide(family.name);
      this.members = family.tellApart?.();
      if (!this.members) return undefined;
    }
    const backend = this.members?.see(event);
    return backend === undefined ? undefined : this.decide(backend);
  }

  guess(ended: boolean): Verdict {
    if (this.verdict) return this.verdict;
    const backend = this.family ? (this.members?.guess(ended) ?? this.family.name) : this.fallback.name;
    return { backend, detection: "guessed" };
  }

  private decide(backend: string): Verdict {
    return (this.verdict = { backend, detection: "detected" });
  }
}

/**
 * The backend whose protocol this native event is: one that claims it by its content (a type
 * another protocol writes too), else the first (in the registry's order) that writes its type.
 */
export function protocolOwner<B extends BackendDefinition>(backends: readonly B[], event: NativeEvent): B | undefined {
  return backends.find((b) => b.claims?.(event)) ?? backends.find((b) => b.nativeTypes?.has(event.type));
}

function isCanonical(e: NativeEvent): boolean {
  return e.v === 1 && typeof e.seq === "number" && typeof e.run_id === "string";
}
