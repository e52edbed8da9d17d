import { ErrLeaseNotFound, ErrNotPrimary } from '../../lessor/errors.js';
import { Deadline } from './deadline.js';
import { ErrLeaderChanged, ErrNoLeader, ErrTimeout, type AnyServerError } from './errors.js';
import type { EtcdServer } from './etcd-server.js';
import {
  type CONNECTION_REFUSED,
  peerCall,
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
  if (!s.checksLeadership || s.bug('no-leadership-check-on-renew')) return renewAfterLeadership(s, id, cb, ctx);
  s.ensureLeadership((ok) => (ok ? renewAfterLeadership(s, id, cb, ctx) : cb({ ttl: -1, err: ErrNotPrimary })));
}

function renewAfterLeadership(s: EtcdServer, id: bigint, cb: (r: LeaseRenewResult) => void, ctx: RequestContext): void {
  // Bug C2: renewing before this member has applied what is committed (the grant may still be pending).
  if (s.bug('renew-without-apply-wait') || s.appliedIndex >= s.raft.commitIndex) return renewLocally(s, id, cb, ctx);
  s.waitAppliedIndex((err) => (err !== undefined ? cb({ ttl: 0, err }) : renewLocally(s, id, cb, ctx)));
}

function renewLocally(s: EtcdServer, id: bigint, cb: (r: LeaseRenewResult) => void, ctx: RequestContext): void {
  s.lessor.renew(id, (o) => {
    // Proposed fix: a confirmation that took a stalled raft loop's time proves nothing about now, so the
    // renewal is acknowledged only once leadership is confirmed again after it.
    if (o.err === undefined && s.fix('confirm-leadership-by-read-index'))
      return s.ensureLeadership((ok) => cb(ok ? o : { ttl: -1, err: ErrNotPrimary }));
    if (o.err === undefined) return cb(o);
    if (o.err !== ErrNotPrimary) return cb({ ttl: -1, err: o.err });
    forwardRenew(s, id, cb, ctx);
  });
}

function forwardRenew(s: EtcdServer, id: bigint, cb: (r: LeaseRenewResult) => void, ctx: RequestContext): void {
  forwardToLeader<RenewHTTPResult | typeof CONNECTION_REFUSED, LeaseRenewResult>(
    s,
    ctx,
    s.config.profile.forwardRenewThrottleMs * 1000,
    (leader, reply) => peerCall(s, leader, (remote, respond) => serveRenewHTTP(remote, id, respond), reply),
    (r) => (r.status === 200 ? { ttl: r.ttl } : r.status === 404 ? { ttl: -1, err: ErrLeaseNotFound } : undefined),
    (err) => cb({ ttl: -1, err }),
    cb,
  );
}

/**
 * The forwarding loop both LeaseRenew and LeaseTimeToLive run on a non-leader: wait for a leader, call
 * it, stop on a final answer, otherwise pause and go again, all within ReqTimeout. When the context
 * ends while waiting for a leader the answer is ErrNoLeader, otherwise ErrTimeout (as in etcd). A
 * cancelled context ends the loop at its next look; nobody is left to answer.
 */
function forwardToLeader<R, T>(
  s: EtcdServer,
  ctx: RequestContext,
  pauseUs: number,
  call: (leader: string, reply: (r: R) => void) => void,
  final: (r: R) => T | undefined,
  fail: (err: AnyServerError) => void,
  ok: (t: T) => void,
): void {
  let waitingForLeader = false;
  const d = new Deadline(s.proc, s.timings.reqTimeoutUs, () => fail(waitingForLeader ? ErrNoLeader : ErrTimeout));
  const round = (): void => {
    if (!d.open || ctx.cancelled) return;
    const leader = s.leader();
    if (leader === undefined) {
      // waitLeader: look again after an election timeout.
      waitingForLeader = true;
      s.proc.after(s.timings.electionTimeoutUs, round);
      return;
    }
    waitingForLeader = false;
    const started = s.proc.now();
    call(leader, (r) => {
      if (!d.open) return;
      const t = final(r);
      if (t !== undefined) return d.settle() && ok(t);
      s.proc.after(Math.max(pauseUs, MIN_ROUND_US - (s.proc.now() - started), 0), round);
    });
  };
  round();
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
  if (s.isLeader() && s.fix('lease-reads-confirm-leadership')) {
    // Proposed fix: a leader cut off from its quorum (stalled raft loop, partition) must not answer alone.
    return s.ensureLeadership((ok) =>
      ok ? timeToLiveOnLeader(s, id, keys, cb) : cb({ ok: false, err: ErrLeaderChanged }),
    );
  }
  if (s.isLeader()) return timeToLiveOnLeader(s, id, keys, cb);
  forwardToLeader<TimeToLiveHTTPResult | typeof CONNECTION_REFUSED, TimeToLiveResult>(
    s,
    BACKGROUND,
    0,
    (leader, reply) => peerCall(s, leader, (remote, respond) => serveTimeToLiveHTTP(remote, id, keys, respond), reply),
    (r) =>
      r.status === 200
        ? { ok: true, body: r.body }
        : r.status === 404
          ? { ok: false, err: ErrLeaseNotFound }
          : undefined,
    (err) => cb({ ok: false, err }),
    cb,
  );
}

function timeToLiveOnLeader(s: EtcdServer, id: bigint, keys: boolean, cb: (r: TimeToLiveResult) => void): void {
  s.waitAppliedIndex((err) => {
    if (err !== undefined) return cb({ ok: false, err });
    const l = s.lessor.lookup(id);
    if (l === undefined) return cb({ ok: false, err: ErrLeaseNotFound });
    if (s.config.profile.timeToLiveRejectsDemoted && !s.bug('ttl-on-demoted-lessor') && l.demoted())
      return cb({ ok: false, err: ErrLeaderChanged });
    cb({ ok: true, body: { ttl: l.remainingSeconds(s.proc.now()), grantedTTL: l.ttl, keys: keys ? l.keys() : [] } });
  });
}
