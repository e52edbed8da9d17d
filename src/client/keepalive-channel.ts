import type { Micros } from '../clock/time.js';
import type { KeepAliveResponse } from '../cluster/server/api.js';
import type { ClientTracer } from './tracer.js';

/**
 * Why a keepalive channel closed. clientv3 closes the channel with no error value in every case; the
 * reason is what the simulation reports.
 * - `ttl<=0`: a response said the lease is gone (expired and revoked, or revoked).
 * - `deadline`: no response for TTL seconds after the last one (or firstKeepAliveTimeout at first).
 * - `cancelled`: the caller cancelled its context (`close()`).
 * - `client-closed`: the client was closed; the keepalive loop halted.
 * - `no-leader`: the stream ended with ErrNoLeader and this caller required a leader.
 */
export type KeepAliveCloseReason = 'ttl<=0' | 'deadline' | 'cancelled' | 'client-closed' | 'no-leader';

/** The context a caller passed to KeepAlive: Go pairs each channel with one (`ka.ctxs[i]`). */
export interface CallerCtx {
  readonly requireLeader: boolean;
  cancelled: boolean;
}

/**
 * What `KeepAlive(ctx, id)` returns: clientv3's `<-chan *LeaseKeepAliveResponse` as an object. Every
 * response is offered to the `onResponse` listeners as soon as it is received (a drained channel:
 * LeaseResponseChSize never fills, so responses are never dropped). The channel closes once.
 */
export class KeepAliveChannel {
  private reason: KeepAliveCloseReason | undefined;
  private closedTime: Micros | undefined;
  /** Made on the first listener: most channels have none, and a response then touches no array. */
  private responseListeners: ((r: KeepAliveResponse) => void)[] | undefined;
  private readonly closeListeners: ((reason: KeepAliveCloseReason) => void)[] = [];
  private count = 0;
  private last: KeepAliveResponse | undefined;
  private lastTime: Micros | undefined;
  /** @internal the caller's context */
  readonly ctx: CallerCtx;

  constructor(
    readonly id: bigint,
    requireLeader: boolean,
    private readonly tracer: ClientTracer,
    /** The client's process: one shared clock, not a closure per channel. */
    private readonly clock: { now(): Micros },
    private readonly cancelCtx: (ch: KeepAliveChannel) => void,
  ) {
    this.ctx = { requireLeader, cancelled: false };
  }

  /** Open: the client still keeps the lease alive for this caller. */
  get alive(): boolean {
    return this.reason === undefined;
  }

  get closed(): boolean {
    return this.reason !== undefined;
  }

  get closeReason(): KeepAliveCloseReason | undefined {
    return this.reason;
  }

  get closedAt(): Micros | undefined {
    return this.closedTime;
  }

  /** Responses delivered on this channel. */
  get responses(): number {
    return this.count;
  }

  get lastResponse(): KeepAliveResponse | undefined {
    return this.last;
  }

  get lastResponseAt(): Micros | undefined {
    return this.lastTime;
  }

  get requireLeader(): boolean {
    return this.ctx.requireLeader;
  }

  onResponse(fn: (r: KeepAliveResponse) => void): this {
    (this.responseListeners ??= []).push(fn);
    return this;
  }

  /** Runs `fn` when the channel closes; at once if it already has. */
  onClose(fn: (reason: KeepAliveCloseReason) => void): this {
    if (this.reason !== undefined) fn(this.reason);
    else this.closeListeners.push(fn);
    return this;
  }

  /** Cancels the caller's context (clientv3's keepAliveCtxCloser does the rest). */
  close(): void {
    this.cancelCtx(this);
  }

  /** @internal */
  deliver(r: KeepAliveResponse): void {
    if (this.reason !== undefined) return;
    this.count++;
    this.last = r;
    this.lastTime = this.clock.now();
    // A listener may add listeners: those wait for the next response, hence the copy (none is cheaper).
    const ls = this.responseListeners;
    if (ls === undefined) return;
    if (ls.length === 1) ls[0]!(r);
    else if (ls.length > 1) for (const fn of [...ls]) fn(r);
  }

  /** @internal closes the channel (Go's `close(ch)`). */
  shut(reason: KeepAliveCloseReason): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.closedTime = this.clock.now();
    if (this.tracer.on) this.tracer.emit('client-keepalive-closed', this.id, { reason });
    const listeners = this.closeListeners.splice(0);
    for (const fn of listeners) fn(reason);
  }
}
