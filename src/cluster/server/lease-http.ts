import { ErrLeaseNotFound, ErrNotPrimary } from '../../lessor/errors.js';
import type { RenewOutcome } from '../../lessor/lessor.js';
import { ErrLeaseHTTPTimeout, type AnyServerError } from './errors.js';
import { Packet, type PacketHandler, type WireLabel } from '../network/network.js';
import type { EtcdServer } from './etcd-server.js';

/** leasehttp's answers, as status codes: the forwarding member maps them back to errors. */
export type RenewHTTPResult =
  | { readonly status: 200; readonly ttl: number }
  | { readonly status: 404 | 400 | 408; readonly err: AnyServerError };

export interface TimeToLiveBody {
  readonly ttl: number;
  readonly grantedTTL: number;
  readonly keys: readonly string[];
}

export type TimeToLiveHTTPResult =
  | { readonly status: 200; readonly body: TimeToLiveBody }
  | { readonly status: 404 | 408 | 500; readonly err: AnyServerError };

/**
 * POST /leases on `server` (the leader, as the sender believes): wait for the applied index (1 s, else
 * 408), then Renew on its lessor. No leadership check here: a member that is not primary answers 400.
 */
export function serveRenewHTTP(server: EtcdServer, id: bigint, respond: (r: RenewHTTPResult) => void): void {
  // Proposed fix: a member that lost its term must not renew from its lessor; 400 makes the caller retry.
  if (server.behaviour.leaseReadsConfirmLeadership) {
    return server.ensureLeadership((ok) =>
      ok ? renewHTTP(server, id, respond) : respond({ status: 400, err: ErrNotPrimary }),
    );
  }
  renewHTTP(server, id, respond);
}

function renewHTTP(server: EtcdServer, id: bigint, respond: (r: RenewHTTPResult) => void): void {
  // Applied up to the commit index already (the common case): waitApplied would call back at once.
  if (server.appliedIndex >= server.raft.commitIndex) return renewOnLessor(server, id, respond);
  server.waitApplied(server.raft.commitIndex, server.timings.applyTimeoutUs, ErrLeaseHTTPTimeout, (err) => {
    if (err !== undefined) return respond({ status: 408, err });
    renewOnLessor(server, id, respond);
  });
}

function renewOnLessor(server: EtcdServer, id: bigint, respond: (r: RenewHTTPResult) => void): void {
  server.lessor.renew(id, (o: RenewOutcome) => {
    if (o.err === undefined) respond({ status: 200, ttl: o.ttl });
    else respond({ status: o.err === ErrLeaseNotFound ? 404 : 400, err: o.err });
  });
}

/** POST /leases/internal: TimeToLive from the leader's lessor; a demoted lease answers 500 in 3.5. */
export function serveTimeToLiveHTTP(
  server: EtcdServer,
  id: bigint,
  keys: boolean,
  respond: (r: TimeToLiveHTTPResult) => void,
): void {
  if (server.behaviour.leaseReadsConfirmLeadership) {
    return server.ensureLeadership((ok) =>
      ok ? timeToLiveHTTP(server, id, keys, respond) : respond({ status: 500, err: ErrNotPrimary }),
    );
  }
  timeToLiveHTTP(server, id, keys, respond);
}

function timeToLiveHTTP(
  server: EtcdServer,
  id: bigint,
  keys: boolean,
  respond: (r: TimeToLiveHTTPResult) => void,
): void {
  server.waitApplied(server.raft.commitIndex, server.timings.applyTimeoutUs, ErrLeaseHTTPTimeout, (err) => {
    if (err !== undefined) return respond({ status: 408, err });
    const l = server.lessor.lookup(id);
    if (l === undefined) return respond({ status: 404, err: ErrLeaseNotFound });
    if (server.behaviour.timeToLiveRejectsDemoted && l.demoted()) return respond({ status: 500, err: ErrNotPrimary });
    respond({
      status: 200,
      body: { ttl: l.remainingSeconds(server.proc.now()), grantedTTL: l.ttl, keys: keys ? l.keys() : [] },
    });
  });
}

/** The caller's side when the peer's host refuses the connection (its etcd process is dead). */
export const CONNECTION_REFUSED = { status: 503 } as const;

type PeerReply<R> = R | typeof CONNECTION_REFUSED;

/**
 * One caller of a peer handler: `callPeer(to)` runs `serve` on member `to` over the peer network and
 * hands its answer to `answered` back on the caller. A dead peer refuses at once (`CONNECTION_REFUSED`
 * comes back after a round trip); no answer comes if the peer is paused or partitioned away, and the
 * caller's context deadline decides. The request packet carries the caller (PEER_REQUESTS handles it on
 * the peer) and the caller handles its answers, so a loop that calls again and again needs no object or
 * closure per call.
 */
export abstract class PeerCaller<R> implements PacketHandler<PeerReply<R>, undefined> {
  constructor(protected readonly caller: EtcdServer) {}

  /** Runs on the peer: answers through `respond`, or never. */
  protected abstract serve(remote: EtcdServer, respond: (r: R) => void): void;
  /** Runs on the caller, unless it stopped meanwhile. */
  protected abstract answered(r: PeerReply<R>): void;

  protected callPeer(to: string): void {
    const from = this.caller;
    from.network.send(from.name, to, 'peer', new Packet(PEER_REQUESTS, this as PeerCaller<unknown>, undefined));
  }

  /** The request has reached member `to` (running): serve it there and send the answer back. */
  serveOn(to: string, request: Packet<PeerCaller<unknown>, undefined>): void {
    const remote = this.caller.registry(to);
    if (remote === undefined || remote.stopped) return;
    this.serve(remote, (r) => request.answer(new Packet(this, r, undefined)));
  }

  /** The answer (or the peer host's refusal) is back on the caller. */
  deliver(p: Packet<PeerReply<R>, undefined>): void {
    if (!this.caller.stopped) this.answered(p.arg);
  }

  /** An answer to a dead caller is lost. */
  refused(): void {}

  /** The call's name on the wire for onlookers (a subclass names its own), its answer with `-answer`. */
  readonly wireKind: string = 'peer-call';
  wireLease(): bigint | undefined {
    return undefined;
  }

  label(): WireLabel {
    return { kind: `${this.wireKind}-answer`, lease: this.wireLease() };
  }
}

/** A peer call's request: its packet carries the caller, which serves it on the receiving member. */
const PEER_REQUESTS: PacketHandler<PeerCaller<unknown>, undefined> = {
  deliver: (p) => p.arg.serveOn(p.to, p),
  refused: (p) => p.answer(new Packet(p.arg, CONNECTION_REFUSED, undefined)),
  label: (p) => ({ kind: p.arg.wireKind, lease: p.arg.wireLease() }),
};

/** One call of `handler` on member `to` (see PeerCaller), answered to `cb`. */
export function peerCall<R>(
  from: EtcdServer,
  to: string,
  handler: (remote: EtcdServer, respond: (r: R) => void) => void,
  cb: (r: R | typeof CONNECTION_REFUSED) => void,
): void {
  new PeerCall(from, handler, cb).call(to);
}

class PeerCall<R> extends PeerCaller<R> {
  constructor(
    caller: EtcdServer,
    private readonly handler: (remote: EtcdServer, respond: (r: R) => void) => void,
    private readonly cb: (r: R | typeof CONNECTION_REFUSED) => void,
  ) {
    super(caller);
  }

  call(to: string): void {
    this.callPeer(to);
  }

  protected serve(remote: EtcdServer, respond: (r: R) => void): void {
    this.handler(remote, respond);
  }

  protected answered(r: R | typeof CONNECTION_REFUSED): void {
    this.cb(r);
  }
}
