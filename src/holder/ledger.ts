import type { Micros } from '../clock/time.js';
import type { Trace, TraceEvent } from '../trace/trace.js';

interface Belief {
  readonly lease: bigint;
  readonly token: number;
  readonly from: Micros;
  /** undefined while it still believes. */
  to: Micros | undefined;
  /** A deadline holder's declared end of acting (virtual time). */
  until: Micros | undefined;
}

interface Book {
  readonly beliefs: Belief[];
  staleAccepted: number;
  staleRejected: number;
}

/** When a belief ends: its stop, or while it lasts, now or a deadline holder's declared end if earlier. */
const end = (b: Belief, nowUs: Micros): Micros => b.to ?? Math.min(nowUs, b.until ?? Infinity);

/**
 * Truth against belief while the replay runs, for `expect` on holders: each holder's belief intervals
 * (`holder-acquired` → `holder-stop`), the instants its leases were really revoked (`holder-revoked`),
 * and its writes offered on a revoked lease. Read from the trace as it is written.
 */
export class HolderLedger {
  private readonly books = new Map<string, Book>();
  private readonly revokedAt = new Map<bigint, Micros>();

  constructor(
    trace: Trace,
    private readonly clock: { now(): Micros },
  ) {
    trace.subscribe((e) => this.see(e));
  }

  private book(holder: string): Book {
    let b = this.books.get(holder);
    if (b === undefined) {
      b = { beliefs: [], staleAccepted: 0, staleRejected: 0 };
      this.books.set(holder, b);
    }
    return b;
  }

  private see(e: TraceEvent): void {
    switch (e.kind) {
      case 'holder-acquired':
        this.book(e.member).beliefs.push({
          lease: e.lease!,
          token: e.fields.token,
          from: e.t,
          to: undefined,
          until: undefined,
        });
        return;
      case 'holder-stop': {
        const open = this.books.get(e.member)?.beliefs.at(-1);
        if (open !== undefined && open.to === undefined) open.to = Math.max(open.from, e.t - (e.fields.lateUs ?? 0));
        return;
      }
      case 'holder-deadline': {
        const open = this.books.get(e.member)?.beliefs.at(-1);
        if (open !== undefined && open.to === undefined) open.until = e.fields.untilUs;
        return;
      }
      case 'holder-revoked':
        this.revokedAt.set(e.lease!, e.t);
        return;
      case 'client-fenced-write': {
        const b = this.books.get(e.member);
        const open = b?.beliefs.at(-1);
        if (b === undefined || open === undefined || open.token !== e.fields.token || !this.revokedAt.has(open.lease))
          return;
        if (e.fields.accepted) b.staleAccepted++;
        else b.staleRejected++;
      }
    }
  }

  knows(holder: string): boolean {
    return this.books.has(holder);
  }

  /** Whether the holder believes, now, that it holds the lock. */
  acting(holder: string): boolean {
    const open = this.books.get(holder)?.beliefs.at(-1);
    return open !== undefined && open.to === undefined && !(open.until !== undefined && open.until <= this.clock.now());
  }

  /** Time so far that it believed it held the lock after its lease was revoked. */
  believedAfterLossUs(holder: string, nowUs: Micros): Micros {
    let sum = 0;
    for (const b of this.books.get(holder)?.beliefs ?? []) {
      const r = this.revokedAt.get(b.lease);
      if (r !== undefined) sum += Math.max(0, end(b, nowUs) - r);
    }
    return sum;
  }

  staleWrites(holder: string): { readonly accepted: number; readonly rejected: number } {
    const b = this.books.get(holder);
    return { accepted: b?.staleAccepted ?? 0, rejected: b?.staleRejected ?? 0 };
  }

  /** Time so far that two or more holders believed they held the lock at once. */
  overlapUs(nowUs: Micros): Micros {
    const all = [...this.books.values()].flatMap((b) => b.beliefs.map((x) => [x.from, end(x, nowUs)] as const));
    let sum = 0;
    for (const [i, [a0, a1]] of all.entries())
      for (const [b0, b1] of all.slice(i + 1)) sum += Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
    return sum;
  }
}
