/** A caller waiting for a linearizable read index: `ok` false when leadership could not be confirmed. */
export type ReadIndexCallback = (ok: boolean, index: number) => void;

/** One outstanding read (readIndexStatus): the commit index when it came in and who has confirmed it. */
export interface ReadIndexStatus {
  readonly index: number;
  readonly ctx: number;
  /** Leader tick count when it came in; requests unconfirmed for an election timeout fail. */
  readonly tick: number;
  readonly cb: ReadIndexCallback;
  readonly acks: Set<string>;
}

const NONE: readonly ReadIndexStatus[] = Object.freeze([]);

/**
 * readOnly (ReadOnlySafe): read requests waiting for a heartbeat round to confirm the leader still leads.
 * A quorum of acks for one request's round confirms it and every request queued before it.
 */
export class ReadOnly {
  private queue: ReadIndexStatus[] = [];
  private readonly byCtx = new Map<number, ReadIndexStatus>();

  add(index: number, ctx: number, tick: number, cb: ReadIndexCallback): void {
    const s: ReadIndexStatus = { index, ctx, tick, cb, acks: new Set() };
    this.queue.push(s);
    this.byCtx.set(ctx, s);
  }

  /** Records that `from` answered the heartbeat round `ctx`; returns the acks so far (without the leader). */
  recvAck(from: string, ctx: number): number {
    const s = this.byCtx.get(ctx);
    if (s === undefined) return 0;
    s.acks.add(from);
    return s.acks.size;
  }

  /** Removes and returns the request `ctx` and every request queued before it. */
  advance(ctx: number): readonly ReadIndexStatus[] {
    const i = this.queue.findIndex((s) => s.ctx === ctx);
    if (i < 0) return NONE;
    const done = this.queue.slice(0, i + 1);
    this.queue = this.queue.slice(i + 1);
    for (const s of done) this.byCtx.delete(s.ctx);
    return done;
  }

  /** Removes and returns the requests that came in at or before `tick` (checked every leader tick). */
  expire(tick: number): readonly ReadIndexStatus[] {
    let n = 0;
    while (n < this.queue.length && this.queue[n]!.tick <= tick) n++;
    return n === 0 ? NONE : this.advance(this.queue[n - 1]!.ctx);
  }

  /** Removes and returns every request (leadership is gone). */
  drain(): readonly ReadIndexStatus[] {
    if (this.queue.length === 0) return NONE;
    const all = this.queue;
    this.queue = [];
    this.byCtx.clear();
    return all;
  }

  /** The newest round's context, which every heartbeat carries so lost acks are retried; 0 when idle. */
  lastPendingCtx(): number {
    return this.queue.length === 0 ? 0 : this.queue[this.queue.length - 1]!.ctx;
  }
}
