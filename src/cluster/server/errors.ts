import {
  ErrLeaseExists,
  ErrLeaseNotFound,
  ErrLeaseTTLTooLarge,
  ErrNotPrimary,
  type LeaseError,
} from '../../lessor/errors.js';
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

export type AnyServerError = ServerError | LeaseError;

/**
 * togRPCError (server/etcdserver/api/v3rpc/util.go). ErrNotPrimary, ErrCanceled and ErrProposalDropped
 * are not in etcd's map, so they surface as Unknown with their own text.
 */
export function toRpcError(err: AnyServerError): RpcError {
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
