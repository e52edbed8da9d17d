import type { Timer } from '../clock/scheduler.js';
import type { ClientRequest, ClientResponse, RpcError } from '../cluster/server/api.js';
import type { Conn } from './conn.js';
import { UNARY_MAX_ATTEMPTS } from './constants.js';
import type { CallOptions, ClientCore } from './core.js';
import { ErrContextCanceled, ErrClientClosed, ErrDeadlineExceeded, isRpcError } from './errors.js';
import { backoffBefore, isSafeRetry, type RetryPolicy } from './retry.js';

/**
 * One unary RPC as clientv3 runs it: the call's context deadline (`timeoutUs`, default the client's
 * request timeout; none with `noDeadline`) bounds all attempts together; the retry interceptor re-sends under `policy`
 * (retry.ts) on the pinned member, which an Unavailable answer has just moved to the next endpoint.
 *
 * The callback runs exactly once, on the client's process: with the response, the last attempt's
 * error, `DeadlineExceeded` when the deadline passes first (the member the pending attempt went to is
 * then abandoned: failover), or `Canceled` when the client is closed.
 */
export function invoke<R extends ClientResponse>(
  core: ClientCore,
  req: ClientRequest,
  policy: RetryPolicy,
  cb: (res: R | RpcError) => void,
  opts: CallOptions = {},
): void {
  if (core.closed) {
    core.process.after(0, () => cb(ErrClientClosed));
    return;
  }
  let done = false;
  let inFlight: { conn: Conn; abandon: () => void } | undefined;
  let backoff: Timer | undefined;

  const finish = (res: R | RpcError): void => {
    if (done) return;
    done = true;
    deadline?.cancel();
    backoff?.cancel();
    core.inflight.delete(cancel);
    cb(res);
  };
  const cancel = (): void => {
    inFlight?.abandon();
    inFlight = undefined;
    finish(ErrContextCanceled);
  };
  core.inflight.add(cancel);

  const onDeadline = (): void => {
    if (done) return;
    if (core.tracer.on)
      core.tracer.emit('client-rpc-timeout', leaseOf(req), { op: req.op, endpoint: inFlight?.conn.endpoint ?? '-' });
    if (inFlight !== undefined) {
      inFlight.abandon();
      core.balancer.fail(inFlight.conn, 'DeadlineExceeded');
      inFlight = undefined;
    }
    finish(ErrDeadlineExceeded);
  };
  const deadline =
    opts.noDeadline === true ? undefined : core.process.after(opts.timeoutUs ?? core.requestTimeoutUs, onDeadline);

  const attempt = (k: number): void => {
    const conn = core.balancer.current;
    const holder = { conn, abandon: (): void => {} };
    inFlight = holder;
    holder.abandon = conn.unary(req, (res) => {
      if (inFlight === holder) inFlight = undefined;
      if (done) return;
      if (!isRpcError(res)) {
        finish(res as R);
        return;
      }
      if (res.code === 'Unavailable') core.balancer.fail(conn, res.name);
      const retry = isSafeRetry(policy, res) && k + 1 < UNARY_MAX_ATTEMPTS;
      if (core.tracer.on) {
        core.tracer.emit('client-rpc-error', leaseOf(req), {
          op: req.op,
          endpoint: conn.endpoint,
          error: res.name,
          attempt: k,
          retry,
        });
      }
      if (!retry) {
        finish(res);
        return;
      }
      const wait = backoffBefore(k + 1, core.balancer.endpoints.length, core.prng);
      if (wait === 0) attempt(k + 1);
      else
        backoff = core.process.after(wait, () => {
          backoff = undefined;
          if (!done) attempt(k + 1);
        });
    });
  };
  attempt(0);
}

function leaseOf(req: ClientRequest): bigint | undefined {
  switch (req.op) {
    case 'LeaseRevoke':
    case 'LeaseTimeToLive':
      return req.id;
    case 'Put':
      return req.lease === 0n ? undefined : req.lease;
    default:
      return undefined;
  }
}
