import type { RpcError } from '../cluster/server/api.js';
import type { Callback, EtcdClient, LeaseRevokeResponse } from './client.js';
import { DEFAULT_SESSION_TTL } from './constants.js';
import { isRpcError } from './errors.js';
import type { KeepAliveChannel, KeepAliveCloseReason } from './keepalive-channel.js';

export interface SessionOptions {
  /** Lease TTL in seconds; ≤ 0 or absent means the default 60 s (WithTTL). */
  readonly ttl?: number;
  /** Use this existing lease instead of granting one (WithLease). */
  readonly lease?: bigint;
  /** Pass WithRequireLeader on the keepalive context (Session does not by default). */
  readonly requireLeader?: boolean;
}

/**
 * concurrency.Session (client/v3/concurrency/session.go@v3.5.33): a lease granted with the session TTL
 * (default 60 s) and kept alive for as long as the session lives. `done` turns true when the keepalive
 * channel closes — TTL ≤ 0 answer, deadline passed, orphaned, or client closed — and never turns back.
 */
export class Session {
  private readonly doneListeners: ((reason: KeepAliveCloseReason) => void)[] = [];

  private constructor(
    readonly client: EtcdClient,
    /** The session's lease ID. */
    readonly lease: bigint,
    /** The TTL the session asked for (the granted TTL may be larger: the server clamps to its minimum). */
    readonly ttl: number,
    private readonly channel: KeepAliveChannel,
  ) {
    channel.onClose((reason) => {
      const t = client.core.tracer;
      if (t.on) t.emit('client-session-done', lease, { reason });
      for (const fn of this.doneListeners.splice(0)) fn(reason);
    });
  }

  /**
   * NewSession: Grant(ttl) unless a lease was given, then KeepAlive. The grant runs in the session's
   * context, client.Ctx() by default, which has no deadline: it waits (retrying on failover) as long as
   * it takes, as Go's does.
   */
  static create(client: EtcdClient, opts: SessionOptions, cb: (s: Session | RpcError) => void): void {
    const ttl = opts.ttl !== undefined && opts.ttl > 0 ? opts.ttl : DEFAULT_SESSION_TTL;
    const start = (id: bigint): void => {
      const ch = client.keepAlive(id, opts.requireLeader !== undefined ? { requireLeader: opts.requireLeader } : {});
      const t = client.core.tracer;
      if (t.on) t.emit('client-session-start', id, { ttl });
      cb(new Session(client, id, ttl, ch));
    };
    if (opts.lease !== undefined && opts.lease !== 0n) {
      start(opts.lease);
      return;
    }
    client.grant(
      ttl,
      (res) => {
        if (isRpcError(res)) cb(res);
        else start(res.id);
      },
      { noDeadline: true },
    );
  }

  get done(): boolean {
    return this.channel.closed;
  }

  /** Why the session ended, once it has. */
  get doneReason(): KeepAliveCloseReason | undefined {
    return this.channel.closeReason;
  }

  /** The keepalive channel behind the session. */
  get keepAlive(): KeepAliveChannel {
    return this.channel;
  }

  /** Runs `fn` when the session is done; at once if it already is. */
  onDone(fn: (reason: KeepAliveCloseReason) => void): this {
    if (this.channel.closed) fn(this.channel.closeReason!);
    else this.doneListeners.push(fn);
    return this;
  }

  /** Stops refreshing the lease and leaves it to expire (no revoke). */
  orphan(): void {
    this.channel.close();
  }

  /**
   * Orphan, then Revoke with a deadline of TTL seconds ("if revoke takes longer than the ttl, lease is expired
   * anyway").
   */
  close(cb: Callback<LeaseRevokeResponse> = () => {}): void {
    this.orphan();
    this.client.revoke(this.lease, cb, { timeoutUs: this.ttl * 1_000_000 });
  }
}
