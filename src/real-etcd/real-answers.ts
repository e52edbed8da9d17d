/**
 * Named answers on real etcd: a request step with `as: NAME` records what etcd answered, the same way
 * the simulation does (scenario/replay/answers.ts), so `expect: { answer: NAME }` is judged by the same
 * verdict. etcd's errors arrive as gRPC status text; they are named here as the simulation names them.
 */
import * as grpc from '@grpc/grpc-js';
import type { Micros } from '../clock/time.js';
import type { AnswerBook, AnswerValues } from '../scenario/replay/answers.js';
import { RpcFailure } from './etcd-rpc.js';

/** rpctypes' messages (api/v3rpc/rpctypes/error.go) → the simulation's error names. */
const BY_MESSAGE: ReadonlyArray<readonly [string, string]> = [
  ['etcdserver: requested lease not found', 'ErrLeaseNotFound'],
  ['etcdserver: lease already exists', 'ErrLeaseExists'],
  ['etcdserver: too large lease TTL', 'ErrLeaseTTLTooLarge'],
  ['etcdserver: no leader', 'ErrNoLeader'],
  ['etcdserver: leader changed', 'ErrLeaderChanged'],
  ['etcdserver: request timed out, waiting for the applied index took too long', 'ErrTimeoutWaitAppliedIndex'],
  ['etcdserver: request timed out', 'ErrTimeout'],
  ['etcdserver: key not found', 'ErrKeyNotFound'],
  ['etcdserver: key is not provided', 'ErrEmptyKey'],
  ['etcdserver: value is provided', 'ErrValueProvided'],
  ['etcdserver: lease is provided', 'ErrLeaseProvided'],
  ['etcdserver: too many operations in txn request', 'ErrTooManyOps'],
  ['etcdserver: duplicate key given in txn request', 'ErrDuplicateKey'],
  ['etcdserver: mvcc: required revision has been compacted', 'ErrCompacted'],
  ['etcdserver: mvcc: required revision is a future revision', 'ErrFutureRev'],
];

/** The name of a failed request's error: etcd's own, a deadline, or the gRPC status when etcd sent none. */
export function realErrorName(e: unknown): string {
  if (!(e instanceof RpcFailure)) return e instanceof Error ? e.message : String(e);
  const known = BY_MESSAGE.find(([m]) => e.details === m);
  if (known !== undefined) return known[1];
  if (e.code === grpc.status.DEADLINE_EXCEEDED) return 'DeadlineExceeded';
  if (e.code === grpc.status.CANCELLED) return 'Canceled';
  return e.details || grpc.status[e.code] || 'error';
}

/**
 * Runs `call` as the request named `as` (when the step names one), recording its answer: the values
 * `values` picks from the result, or the error. The error is thrown on, so the run notes it as before.
 */
export async function asAnswer<T>(
  book: AnswerBook,
  nowUs: () => Micros,
  as: string | undefined,
  op: string,
  call: () => Promise<T>,
  values: (v: T) => { error: string } | AnswerValues,
): Promise<T> {
  if (as === undefined) return call();
  const record = book.sent(as, op, nowUs);
  try {
    const v = await call();
    record(values(v));
    return v;
  } catch (e) {
    record({ error: realErrorName(e) });
    throw e;
  }
}
