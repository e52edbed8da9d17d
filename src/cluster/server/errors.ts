import {
  ErrLeaseExists,
  ErrLeaseNotFound,
  ErrLeaseTTLTooLarge,
  ErrNotPrimary,
  type LeaseError,
} from '../../lessor/errors.js';
import { ErrCompacted, ErrFutureRev, type MvccError } from '../mvcc/index.js';
import type { RpcCode, RpcError } from './api.js';

/** etcdserver's errors (server/etcdserver/errors.go), compared by identity like the lessor's. */
export class ServerError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export const ErrTimeout = new ServerError('ErrTimeout', 'etcdserver: request timed out');
export const ErrTimeoutWaitAppliedIndex = new ServerError(
  'ErrTimeoutWaitAppliedIndex',
  'etcdserver: request timed out, waiting for the applied index took too long',
);
export const ErrNoLeader = new ServerError('ErrNoLeader', 'etcdserver: no leader');
export const ErrLeaderChanged = new ServerError('ErrLeaderChanged', 'etcdserver: leader changed');
export const ErrCanceled = new ServerError('ErrCanceled', 'etcdserver: request cancelled');
/** raft's ErrProposalDropped: a leader transferring leadership refuses proposals. */
export const ErrProposalDropped = new ServerError('ErrProposalDropped', 'raft proposal dropped');
/**
 * The request context's deadline passed while raft's Propose was still blocked (no leader: raft/node.go
 * reads no proposals then); processInternalRaftRequestOnce returns the context's error as it is, which
 * gRPC sends as DeadlineExceeded "context deadline exceeded".
 */
export const ErrProposeDeadline = new ServerError('DeadlineExceeded', 'context deadline exceeded');
/** leasehttp: the peer's apply wait timed out (HTTP 408). */
export const ErrLeaseHTTPTimeout = new ServerError(
  'ErrLeaseHTTPTimeout',
  'waiting for node to catch up its applied index has timed out',
);

/** etcdserver's ErrKeyNotFound: a Put with ignore_value or ignore_lease on a key that does not exist. */
export const ErrKeyNotFound = new ServerError('ErrKeyNotFound', 'etcdserver: key not found');

/**
 * The gRPC KV service's own refusals (v3rpc/rpctypes), made on the receiving member before anything is
 * proposed; their messages are the final wire text, their code InvalidArgument.
 */
export const ErrEmptyKey = new ServerError('ErrEmptyKey', 'etcdserver: key is not provided');
export const ErrValueProvided = new ServerError('ErrValueProvided', 'etcdserver: value is provided');
export const ErrLeaseProvided = new ServerError('ErrLeaseProvided', 'etcdserver: lease is provided');
export const ErrTooManyOps = new ServerError('ErrTooManyOps', 'etcdserver: too many operations in txn request');
export const ErrDuplicateKey = new ServerError('ErrDuplicateKey', 'etcdserver: duplicate key given in txn request');

const INVALID_ARGUMENT: ReadonlySet<AnyServerError> = new Set<AnyServerError>([
  ErrKeyNotFound,
  ErrEmptyKey,
  ErrValueProvided,
  ErrLeaseProvided,
  ErrTooManyOps,
  ErrDuplicateKey,
]);

export type AnyServerError = ServerError | LeaseError | MvccError;

/**
 * togRPCError (server/etcdserver/api/v3rpc/util.go). ErrNotPrimary, ErrCanceled and ErrProposalDropped
 * are not in etcd's map, so they surface as Unknown with their own text.
 */
export function toRpcError(err: AnyServerError): RpcError {
  // mvcc's errors reach the client with etcdserver's prefix (rpctypes.ErrGRPCCompacted, ErrGRPCFutureRev).
  if (err === ErrCompacted || err === ErrFutureRev)
    return { code: 'OutOfRange', name: err.name, message: `etcdserver: ${err.message}` };
  if (INVALID_ARGUMENT.has(err)) return { code: 'InvalidArgument', name: err.name, message: err.message };
  const code: RpcCode =
    err === ErrLeaseNotFound
      ? 'NotFound'
      : err === ErrLeaseExists
        ? 'FailedPrecondition'
        : err === ErrLeaseTTLTooLarge
          ? 'OutOfRange'
          : err === ErrNotPrimary || err === ErrCanceled || err === ErrProposalDropped
            ? 'Unknown'
            : err === ErrProposeDeadline
              ? 'DeadlineExceeded'
              : 'Unavailable';
  const message =
    err === ErrLeaseNotFound
      ? 'etcdserver: requested lease not found'
      : err === ErrLeaseExists
        ? 'etcdserver: lease already exists'
        : err === ErrLeaseTTLTooLarge
          ? 'etcdserver: too large lease TTL'
          : err.message;
  return { code, name: err.name, message };
}
