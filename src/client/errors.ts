import type { RpcCode, RpcError } from '../cluster/server/api.js';

/**
 * Errors the client produces itself, shaped like the server's `RpcError` (gRPC code + etcd name) so a
 * caller handles both with one check (`isRpcError`) and compares names, never message text. The
 * messages are clientv3's own.
 */
const err = (code: RpcCode, name: string, message: string): RpcError => Object.freeze({ code, name, message });

/** The call's own deadline passed with no answer (context.DeadlineExceeded). */
export const ErrDeadlineExceeded = err('DeadlineExceeded', 'DeadlineExceeded', 'context deadline exceeded');
/** The caller (or client shutdown) cancelled the call (context.Canceled). */
export const ErrContextCanceled = err('Canceled', 'Canceled', 'context canceled');
/**
 * The client tore down its connection to a member (failover, or the member stopped answering): gRPC's
 * "transport is closing". Every RPC and stream still open on that connection ends with it.
 */
export const ErrConnClosing = err('Unavailable', 'ErrConnClosing', 'transport is closing');
/** rpctypes.ErrLeaseNotFound as KeepAliveOnce returns it for a TTL ≤ 0 answer. */
export const ErrLeaseNotFound = err('NotFound', 'ErrLeaseNotFound', 'etcdserver: requested lease not found');
/** KeepAlive after the client's keepalive loop has exited (Close): clientv3.ErrKeepAliveHalted. */
export const ErrKeepAliveHalted = err(
  'Canceled',
  'ErrKeepAliveHalted',
  'etcdclient: leases keep alive halted: context canceled',
);
/** concurrency.ErrSessionExpired (3.5): after waiting, the waiter's own lock key was gone. */
export const ErrSessionExpired = err('Unknown', 'ErrSessionExpired', 'mutex: session is expired');
/** concurrency.ErrLocked: TryLock found another owner. */
export const ErrLocked = err('Unknown', 'ErrLocked', 'mutex: Locked by another session');
/** concurrency.ErrElectionNotLeader: Proclaim by a candidate that is not (or no longer) the leader. */
export const ErrElectionNotLeader = err('Unknown', 'ErrElectionNotLeader', 'election: not leader');
/** The watch behind a mutex wait ended without the awaited DELETE ("lost watcher waiting for delete"). */
export const ErrLostWatcher = err('Unknown', 'ErrLostWatcher', 'lost watcher waiting for delete');
/** A call made on a client that was closed. */
export const ErrClientClosed = err('Canceled', 'ErrClientClosed', 'grpc: the client connection is closing');

/** gRPC's own connection errors, as opposed to the errors etcd sends (which rpctypes knows by message). */
const TRANSPORT_ERRORS: ReadonlySet<string> = new Set(['ErrConnClosing', 'ErrConnectionReset', 'ErrConnectionRefused']);

/** An Unavailable error from the connection itself: the one kind clientv3's toErr leaves a gRPC status. */
export const isTransportError = (e: RpcError): boolean => e.code === 'Unavailable' && TRANSPORT_ERRORS.has(e.name);

/** etcd's server error names the client reacts to (it cannot import the server's error values). */
export const NO_LEADER = 'ErrNoLeader';

// The one error test for both sides; api.ts is the wire protocol and imports nothing at run time.
export { isRpcError } from '../cluster/server/api.js';
