import type { Micros } from '../clock/time.js';
import { NO_TRACE, type Trace } from '../trace/trace.js';

/** One write attempt as the resource saw it. */
export interface FencedWrite {
  /** The client that wrote. */
  readonly who: string;
  readonly at: Micros;
  readonly token: number;
  readonly accepted: boolean;
  /** The highest token the resource had seen before this write. */
  readonly highestBefore: number;
  readonly value?: string;
}

/**
 * A storage service protected by fencing tokens (Kleppmann; docs/bugs.md H1): it remembers the
 * highest token it has accepted and rejects any write that carries a lower one. A token equal to the
 * highest is accepted, so the current holder can write repeatedly with its one token. (The runbook's
 * SQL, `WHERE fencing_revision < $1`, rejects equal tokens too; that variant is `strict: true`.)
 *
 * The token is the lock key's create revision (Mutex.myRevision) or a Put's header revision. Checks
 * run on the resource's side, at the instant the write arrives — a client paused with a stale token
 * is refused however sure it is that it still holds the lock.
 */
export class FencedResource {
  private highest = 0;
  private readonly log: FencedWrite[] = [];
  private acceptedCount = 0;
  private rejectedCount = 0;
  private readonly strict: boolean;
  private readonly trace: Trace;

  constructor(
    readonly name: string,
    /** The resource's clock (a Scheduler or the Process of the service that owns it). */
    private readonly clock: { now(): Micros },
    opts: { readonly trace?: Trace; readonly strict?: boolean } = {},
  ) {
    this.trace = opts.trace ?? NO_TRACE;
    this.strict = opts.strict ?? false;
  }

  /** Attempts a write; returns whether it was accepted. */
  write(who: string, token: number, value?: string): boolean {
    const before = this.highest;
    const accepted = this.strict ? token > before : token >= before;
    if (accepted) {
      this.highest = token;
      this.acceptedCount++;
    } else {
      this.rejectedCount++;
    }
    const at = this.clock.now();
    this.log.push({ who, at, token, accepted, highestBefore: before, ...(value !== undefined ? { value } : {}) });
    if (this.trace.enabled) {
      this.trace.emit({
        t: at,
        member: who,
        kind: 'client-fenced-write',
        fields: { resource: this.name, token, accepted },
      });
    }
    return accepted;
  }

  /** The highest token accepted so far (0 before any write). */
  get highestToken(): number {
    return this.highest;
  }

  get accepted(): number {
    return this.acceptedCount;
  }

  get rejected(): number {
    return this.rejectedCount;
  }

  get writes(): readonly FencedWrite[] {
    return this.log;
  }
}
