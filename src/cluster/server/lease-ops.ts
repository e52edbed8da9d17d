import { ErrLeaseNotFound, ErrNotPrimary } from '../../lessor/errors.js';
import type { Timer } from '../../clock/scheduler.js';
import { ErrLeaderChanged, ErrNoLeader, ErrTimeout, type AnyServerError } from './errors.js';
import type { EtcdServer } from './etcd-server.js';
import {
  type CONNECTION_REFUSED,
  PeerCaller,
  serveRenewHTTP,
  serveTimeToLiveHTTP,
  type RenewHTTPResult,
  type TimeToLiveBody,
  type TimeToLiveHTTPResult,
} from './lease-http.js';

export type LeaseRenewResult =
  | { readonly ttl: number; readonly err?: undefined }
  | { readonly ttl: number; readonly err: AnyServerError };

/** A request's context as far as forwarding sees it: the keep-alive stream it came on ended (gRPC). */
export interface RequestContext {
  readonly cancelled: boolean;
}

const BACKGROUND: RequestContext = { cancelled: false };

// A forwarding round cannot take zero time: a Go loop still spends CPU. Keeps 3.4's throttle-free retry
// loop from spinning on one virtual instant when the network has no latency.
const MIN_ROUND_US = 1;

/**
 * EtcdServer.LeaseRenew (v3_server.go). On the leader: confirm leadership (3.5), wait for the applied
 * index, Renew locally; ErrNotPrimary (not yet promoted) falls through to forwarding. Elsewhere: forward
 * to the leader over peer HTTP in a loop until ReqTimeout, 50 ms apart in 3.5 and back to back in 3.4.
 * The loop runs in the stream's context (`LeaseRenew(stream.Context(), …)`): once the stream ended it
 * stops waiting for a leader and calls no leader again.
 */
export function leaseRenew(
  s: EtcdServer,
  id: bigint,
  cb: (r: LeaseRenewResult) => void,
  ctx: RequestContext = BACKGROUND,
): void {
  if (!s.isLeader()) return forwardRenew(s, id, cb, ctx);
  if (!s.behaviour.renewConfirmsLeadership || s.leadershipFresh()) return renewAfterLeadership(s, id, cb, ctx);
  s.ensureLeadership((ok) => (ok ? renewAfterLeadership(s, id, cb, ctx) : cb({ ttl: -1, err: ErrNotPrimary })));
}

function renewAfterLeadership(s: EtcdServer, id: bigint, cb: (r: LeaseRenewResult) => void, ctx: RequestContext): void {
  // Bug C2: renewing before this member has applied what is committed (the grant may still be pending).
  if (!s.behaviour.renewWaitsForApply || s.appliedIndex >= s.raft.commitIndex) return renewLocally(s, id, cb, ctx);
  s.waitAppliedIndex((err) => (err !== undefined ? cb({ ttl: 0, err }) : renewLocally(s, id, cb, ctx)));
}

function renewLocally(s: EtcdServer, id: bigint, cb: (r: LeaseRenewResult) => void, ctx: RequestContext): void {
  s.lessor.renew(id, (o) => {
    // Proposed fix: a confirmation that took a stalled raft loop's time proves nothing about now, so the
    // renewal is acknowledged only once leadership is confirmed again after it.
    if (o.err === undefined && s.behaviour.leadershipByReadIndex)
      return s.ensureLeadership((ok) => cb(ok ? o : { ttl: -1, err: ErrNotPrimary }));
    if (o.err === undefined) return cb(o);
    if (o.err !== ErrNotPrimary) return cb({ ttl: -1, err: o.err });
    forwardRenew(s, id, cb, ctx);
  });
}

function forwardRenew(s: EtcdServer, id: bigint, cb: (r: LeaseRenewResult) => void, ctx: RequestContext): void {
  new RenewForward(s, id, cb, ctx).round();
}

type RenewReply = RenewHTTPResult | typeof CONNECTION_REFUSED;

/**
 * The forwarding loop both LeaseRenew and LeaseTimeToLive run on a non-leader: wait for a leader, call
 * it, stop on a final answer, otherwise pause and go again, all within ReqTimeout. When the context
 * ends while waiting for a leader the answer is ErrNoLeader, otherwise ErrTimeout (as in etcd). A
 * cancelled context ends the loop at its next look; nobody is left to answer. One object per request
 * holds the loop's state, its deadline and its peer calls, rather than an object or closure per round.
 */
abstract class ForwardLoop<R, T> extends PeerCaller<R> {
  private waitingForLeader = false;
  private started = 0;
  /** The answer or the deadline came: whichever was first wins, the other does nothing. */
  private done = false;
  private readonly timer: Timer;
  /** `round` as a timer callback, made on the first retry (most forwards succeed on the first call). */
  private again: (() => void) | undefined;

  constructor(
    protected readonly s: EtcdServer,
    private readonly pauseUs: number,
    private readonly ctx: RequestContext,
  ) {
    super(s);
    // The request context's deadline; timers live on the member's process (a pause delays it, a crash drops it).
    this.timer = s.proc.after(s.timings.reqTimeoutUs, () => this.expire());
  }

  /** The answer to return, or undefined to go round again. */
  protected abstract final(r: R | typeof CONNECTION_REFUSED): T | undefined;
  protected abstract fail(err: AnyServerError): void;
  protected abstract ok(t: T): void;

  round(): void {
    const s = this.s;
    if (this.done || this.ctx.cancelled) return;
    const leader = s.leader();
    if (leader === undefined) {
      // waitLeader: look again after an election timeout.
      this.waitingForLeader = true;
      s.proc.after(s.timings.electionTimeoutUs, this.retry());
      return;
    }
    this.waitingForLeader = false;
    this.started = s.proc.now();
    this.callPeer(leader);
  }

  protected answered(r: R | typeof CONNECTION_REFUSED): void {
    if (this.done) return;
    const t = this.final(r);
    if (t !== undefined) {
      this.done = true;
      this.timer.cancel();
      this.ok(t);
      return;
    }
    const s = this.s;
    s.proc.after(Math.max(this.pauseUs, MIN_ROUND_US - (s.proc.now() - this.started), 0), this.retry());
  }

  private retry(): () => void {
    return (this.again ??= () => this.round());
  }

  private expire(): void {
    if (this.done) return;
    this.done = true;
    this.fail(this.waitingForLeader ? ErrNoLeader : ErrTimeout);
  }
}

/** LeaseRenew's loop: POST /leases, 50 ms apart in 3.5, back to back in 3.4. */
class RenewForward extends ForwardLoop<RenewHTTPResult, LeaseRenewResult> {
  constructor(
    s: EtcdServer,
    private readonly id: bigint,
    private readonly cb: (r: LeaseRenewResult) => void,
    ctx: RequestContext,
  ) {
    super(s, s.config.profile.forwardRenewThrottleMs * 1000, ctx);
  }

  override readonly wireKind = 'renew-forward';
  override wireLease(): bigint {
    return this.id;
  }

  protected serve(remote: EtcdServer, respond: (r: RenewHTTPResult) => void): void {
    serveRenewHTTP(remote, this.id, respond);
  }

  protected final(r: RenewReply): LeaseRenewResult | undefined {
    // A 200 answer is already a result (a TTL and no error): passed on as it is.
    return r.status === 200 ? r : r.status === 404 ? { ttl: -1, err: ErrLeaseNotFound } : undefined;
  }

  protected fail(err: AnyServerError): void {
    this.cb({ ttl: -1, err });
  }

  protected ok(t: LeaseRenewResult): void {
    this.cb(t);
  }
}

type TimeToLiveReply = TimeToLiveHTTPResult | typeof CONNECTION_REFUSED;

/** LeaseTimeToLive's loop: POST /leases/internal with no pause. */
class TimeToLiveForward extends ForwardLoop<TimeToLiveHTTPResult, TimeToLiveResult> {
  constructor(
    s: EtcdServer,
    private readonly id: bigint,
    private readonly keys: boolean,
    private readonly cb: (r: TimeToLiveResult) => void,
  ) {
    super(s, 0, BACKGROUND);
  }

  override readonly wireKind = 'ttl-forward';
  override wireLease(): bigint {
    return this.id;
  }

  protected serve(remote: EtcdServer, respond: (r: TimeToLiveHTTPResult) => void): void {
    serveTimeToLiveHTTP(remote, this.id, this.keys, respond);
  }

  protected final(r: TimeToLiveReply): TimeToLiveResult | undefined {
    return r.status === 200
      ? { ok: true, body: r.body }
      : r.status === 404
        ? { ok: false, err: ErrLeaseNotFound }
        : undefined;
  }

  protected fail(err: AnyServerError): void {
    this.cb({ ok: false, err });
  }

  protected ok(t: TimeToLiveResult): void {
    this.cb(t);
  }
}

export type TimeToLiveResult =
  | { readonly ok: true; readonly body: TimeToLiveBody }
  | { readonly ok: false; readonly err: AnyServerError };

/**
 * EtcdServer.LeaseTimeToLive. The leader answers from its lessor (truncated seconds; 3.5 refuses a
 * demoted lease with ErrLeaderChanged, 3.4 leaks 9223372036); others forward to /leases/internal in a
 * loop with no pause until ReqTimeout. ErrLeaseNotFound becomes TTL -1 at the gRPC layer.
 */
export function leaseTimeToLive(s: EtcdServer, id: bigint, keys: boolean, cb: (r: TimeToLiveResult) => void): void {
  if (s.isLeader() && s.behaviour.leaseReadsConfirmLeadership) {
    // Proposed fix: a leader cut off from its quorum (stalled raft loop, partition) must not answer alone.
    return s.ensureLeadership((ok) =>
      ok ? timeToLiveOnLeader(s, id, keys, cb) : cb({ ok: false, err: ErrLeaderChanged }),
    );
  }
  if (s.isLeader()) return timeToLiveOnLeader(s, id, keys, cb);
  new TimeToLiveForward(s, id, keys, cb).round();
}

function timeToLiveOnLeader(s: EtcdServer, id: bigint, keys: boolean, cb: (r: TimeToLiveResult) => void): void {
  s.waitAppliedIndex((err) => {
    if (err !== undefined) return cb({ ok: false, err });
    const l = s.lessor.lookup(id);
    if (l === undefined) return cb({ ok: false, err: ErrLeaseNotFound });
    if (s.behaviour.timeToLiveRejectsDemoted && l.demoted()) return cb({ ok: false, err: ErrLeaderChanged });
    cb({ ok: true, body: { ttl: l.remainingSeconds(s.proc.now()), grantedTTL: l.ttl, keys: keys ? l.keys() : [] } });
  });
}
