import type { Timer } from '../clock/scheduler.js';
import type { KeepAliveResponse, KeepAliveStream, RpcError } from '../cluster/server/api.js';
import type { CallOptions, ClientCore } from './core.js';
import {
  ErrContextCanceled,
  ErrClientClosed,
  ErrDeadlineExceeded,
  ErrLeaseNotFound,
  isTransportError,
} from './errors.js';
import { backoffBefore } from './retry.js';

/**
 * lease.go `KeepAliveOnce`: a dedicated LeaseKeepAlive stream carrying one request. A response with
 * TTL ≤ 0 becomes `ErrLeaseNotFound`; a non-halting error is retried on a fresh stream, on the member
 * the failover has just pinned; any other error, or the call's deadline (default: the client's request
 * timeout; `noDeadline` for etcdctl's `context.TODO()`), ends the call.
 *
 * Which errors halt (clientv3/lease.go@v3.4.23 keepAliveOnce, client.go toErr and isHaltErr):
 * keepAliveOnce passes the stream's error through toErr, which turns every error etcd itself sends
 * ("etcdserver: request timed out", "etcdserver: no leader" …) into an rpctypes.EtcdError; that is no
 * gRPC status, so isHaltErr sees code Unknown and halts. Only the transport's own Unavailable errors
 * (connection refused or reset, transport closing) are retried.
 *
 * [SIM-CHOICE] Go retries at once. Here retry k waits as the unary interceptor would
 * (roundRobinQuorumBackoff: 25 ms ± 10 % once per quorum of attempts), so a member that answers
 * every attempt with an error instantly cannot spin the simulation at one virtual instant.
 */
export interface KeepAliveOnceOptions extends CallOptions {
  /**
   * The caller's context is WithRequireLeader: the stream carries `hasleader` and ends with ErrNoLeader
   * on a member without a leader. Off by default: etcdctl's `context.TODO()` carries nothing, and the
   * renew then waits for a leader inside the request timeout.
   */
  readonly requireLeader?: boolean;
}

export function keepAliveOnce(
  core: ClientCore,
  id: bigint,
  cb: (res: KeepAliveResponse | RpcError) => void,
  opts: KeepAliveOnceOptions = {},
): void {
  const { process, tracer, balancer } = core;
  if (core.closed) {
    process.after(0, () => cb(ErrClientClosed));
    return;
  }
  let done = false;
  let stream: KeepAliveStream | undefined;
  let retry: Timer | undefined;
  let attempt = 0;
  const streamOpts = opts.requireLeader === true ? { requireLeader: true } : undefined;

  const finish = (res: KeepAliveResponse | RpcError): void => {
    if (done) return;
    done = true;
    deadline?.cancel();
    retry?.cancel();
    stream?.close();
    core.inflight.delete(cancel);
    cb(res);
  };
  const cancel = (): void => finish(ErrContextCanceled);
  core.inflight.add(cancel);
  const deadline =
    opts.noDeadline === true
      ? undefined
      : process.after(opts.timeoutUs ?? core.requestTimeoutUs, () => finish(ErrDeadlineExceeded));

  const once = (): void => {
    retry = undefined;
    if (done) return;
    const conn = balancer.current;
    let settled = false;
    const s = conn.openKeepAlive(
      {
        onResponse: (r) => {
          if (settled || done) return;
          settled = true;
          if (tracer.on) tracer.emit('client-keepalive-once-recv', id, { endpoint: conn.endpoint, ttl: r.ttl });
          finish(r.ttl <= 0 ? ErrLeaseNotFound : r);
        },
        onError: (e) => {
          if (settled || done) return;
          settled = true;
          stream = undefined;
          if (tracer.on) tracer.emit('client-keepalive-once-error', id, { endpoint: conn.endpoint, error: e.name });
          if (!isTransportError(e)) {
            finish(e);
            return;
          }
          balancer.fail(conn, e.name);
          attempt++;
          const wait = backoffBefore(attempt, balancer.endpoints.length, core.prng);
          retry = process.after(wait, once);
        },
      },
      streamOpts,
    );
    stream = s;
    if (tracer.on) tracer.emit('client-keepalive-once-send', id, { endpoint: conn.endpoint });
    s.send(id);
  };
  once();
}
