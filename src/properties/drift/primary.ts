import type { TraceEvent } from '../../trace/trace.js';

/**
 * Which members' lessors are primary, replayed from the trace: a member becomes primary at its
 * `lessor-promote` and stops at its `lessor-demote` or when it crashes (a stopped lessor proposes nothing).
 * Several can believe they are primary at once (a paused or cut-off old leader has not demoted yet); the
 * current one is the latest promoted. Feed every event in order; the answers hold for the last one fed.
 */
export class PrimaryTracker {
  private readonly primaries = new Set<string>();
  private latest: string | undefined;
  /** Promote's `extend` (µs) of each member's latest promotion. */
  private readonly extendUs = new Map<string, number>();

  feed(e: TraceEvent): void {
    switch (e.kind) {
      case 'lessor-promote':
        this.primaries.add(e.member);
        this.latest = e.member;
        this.extendUs.set(e.member, e.fields.extend);
        break;
      case 'lessor-demote':
      case 'member-crash':
        this.primaries.delete(e.member);
        if (this.latest === e.member) this.latest = undefined;
        break;
    }
  }

  /** The member's lessor believes it is primary. */
  isPrimary(member: string): boolean {
    return this.primaries.has(member);
  }

  /** The member holds the latest promotion: its deadlines are the ones that count. */
  isCurrent(member: string): boolean {
    return this.latest === member;
  }

  extend(member: string): number {
    return this.extendUs.get(member) ?? 0;
  }
}
