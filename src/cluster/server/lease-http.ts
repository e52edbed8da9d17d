import { ErrLeaseNotFound, ErrNotPrimary } from '../../lessor/errors.js';
import { idKey, type IdKey } from '../../lessor/lease-id.js';
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
export function serveRenewHTTP(
  server: EtcdServer,
  id: bigint,
  respond: (r: RenewHTTPResult) => void,
  key: IdKey = idKey(id),
): void {
  // Proposed fix: a member that lost its term must not renew from its lessor; 400 makes the caller retry.
  if (server.behaviour.leaseReadsConfirmLeadership) {
    return server.ensureLeadership((ok) =>
      ok ? renewHTTP(server, id, key, respond) : respond({ status: 400, err: ErrNotPrimary }),
    );
  }
  renewHTTP(server, id, key, respond);
}

function renewHTTP(server: EtcdServer, id: bigint, key: IdKey, respond: (r: RenewHTTPResult) => void): void {
  // Applied up to the commit index already (the common case): waitApplied would call back at once.
  if (server.appliedIndex >= server.raft.commitIndex) return renewOnLessor(server, id, key, respond);
  server.waitApplied(server.raft.commitIndex, server.timings.applyTimeoutUs, ErrLeaseHTTPTimeout, (err) => {
    if (err !== undefined) return respond({ status: 408, err });
    renewOnLessor(server, id, key, respond);
  });
}

function renewOnLessor(server: EtcdServer, id: bigint, key: IdKey, respond: (r: RenewHTTPResult) => void): void {
  server.lessor.renew(
    id,
    (o: RenewOutcome) => {
      if (o.err === undefined) respond({ status: 200, ttl: o.ttl });
      else respond({ status: o.err === ErrLeaseNotFound ? 404 : 400, err: o.err });
    },
    key,
  );
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

/**
 * One caller of a peer handler: `callPeer(to)` runs `serve` on member `to` over the peer network and
 * hands its answer to `answered` back on the caller. A dead peer refuses at once (`CONNECTION_REFUSED`
 * comes back after a round trip); no answer comes if the peer is paused or partitioned away, and the
 * caller's context deadline decides. The caller object is the packets' handler (tags REQUEST and
 * REPLY), so a loop that calls again and again needs no object or closure per call.
 */
export abstract class PeerCaller<R> implements PacketHandler {
  constructor(protected readonly caller: EtcdServer) {}

  /** Runs on the peer: answers through `respond`, or never. */
  protected abstract serve(remote: EtcdServer, respond: (r: R) => void): void;
  /** Runs on the caller, unless it stopped meanwhile. */
  protected abstract answered(r: R | typeof CONNECTION_REFUSED): void;

  protected callPeer(to: string): void {
    const from = this.caller;
    from.network.transmit(from.name, to, 'peer', new Packet(this, REQUEST, undefined));
  }

  deliver(p: Packet): void {
    if (p.tag === REPLY) {
      if (!this.caller.stopped) this.answered(p.arg as R | typeof CONNECTION_REFUSED);
      return;
    }
    const remote = this.caller.registry(p.to);
    if (remote === undefined || remote.stopped) return;
    this.serve(remote, (r) => p.answer(new Packet(this, REPLY, r)));
  }

  refused(p: Packet): void {
    if (p.tag === REQUEST) p.answer(new Packet(this, REPLY, CONNECTION_REFUSED));
  }

  /** The call's name on the wire for onlookers (a subclass names its own), its answer with `-answer`. */
  protected readonly wireKind: string = 'peer-call';
  protected wireLease(): bigint | undefined {
    return undefined;
  }

  label(p: Packet): WireLabel {
    return { kind: p.tag === REQUEST ? this.wireKind : `${this.wireKind}-answer`, lease: this.wireLease() };
  }
}

/** One call of `handler` on member `to` (see PeerCaller), answered to `cb`. */
export function peerCall<R>(
  from: EtcdServer,
  to: string,
  handler: (remote: EtcdServer, respond: (r: R) => void) => void,
  cb: (r: R | typeof CONNECTION_REFUSED) => void,
): void {
  new PeerCall(from, handler, cb).call(to);
}

const REQUEST = 0;
const REPLY = 1;

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
