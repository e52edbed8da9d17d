/**
 * The errors an `expect: { answer: … }` may name, as a Go test compares them: clientv3's rpctypes values
 * (ErrLeaseNotFound, ErrLeaseExist, ErrNoLeader, ErrTimeout …), their server-side ErrGRPC… twins, the
 * context errors of a client deadline or cancel, and clientv3/concurrency's own. Each maps to the name
 * the simulation gives that error (cluster/server/errors.ts, lessor/errors.ts, client/errors.ts).
 *
 * "Request timed out" is two different errors in etcd, and both are kept apart here: the server gave up
 * (ErrTimeout, "etcdserver: request timed out", after 5 s + 2 × election timeout) or the caller's own
 * deadline passed first (context.DeadlineExceeded, "context deadline exceeded").
 */

/** Accepted name → the simulation's name for that error. */
const ERROR_NAMES: Readonly<Record<string, string>> = {
  ErrLeaseNotFound: 'ErrLeaseNotFound',
  ErrGRPCLeaseNotFound: 'ErrLeaseNotFound',
  // rpctypes says ErrLeaseExist; the lease package's own value is ErrLeaseExists.
  ErrLeaseExist: 'ErrLeaseExists',
  ErrLeaseExists: 'ErrLeaseExists',
  ErrGRPCLeaseExist: 'ErrLeaseExists',
  ErrLeaseTTLTooLarge: 'ErrLeaseTTLTooLarge',
  ErrGRPCLeaseTTLTooLarge: 'ErrLeaseTTLTooLarge',
  ErrNoLeader: 'ErrNoLeader',
  ErrGRPCNoLeader: 'ErrNoLeader',
  ErrTimeout: 'ErrTimeout',
  ErrGRPCTimeout: 'ErrTimeout',
  ErrTimeoutWaitAppliedIndex: 'ErrTimeoutWaitAppliedIndex',
  ErrLeaderChanged: 'ErrLeaderChanged',
  ErrGRPCLeaderChanged: 'ErrLeaderChanged',
  ErrCanceled: 'ErrCanceled',
  ErrNotPrimary: 'ErrNotPrimary',
  // The KV API's (rpctypes; the server's names in cluster/server/errors.ts and mvcc/errors.ts).
  ErrKeyNotFound: 'ErrKeyNotFound',
  ErrGRPCKeyNotFound: 'ErrKeyNotFound',
  ErrEmptyKey: 'ErrEmptyKey',
  ErrGRPCEmptyKey: 'ErrEmptyKey',
  ErrValueProvided: 'ErrValueProvided',
  ErrGRPCValueProvided: 'ErrValueProvided',
  ErrLeaseProvided: 'ErrLeaseProvided',
  ErrGRPCLeaseProvided: 'ErrLeaseProvided',
  ErrTooManyOps: 'ErrTooManyOps',
  ErrGRPCTooManyOps: 'ErrTooManyOps',
  ErrDuplicateKey: 'ErrDuplicateKey',
  ErrGRPCDuplicateKey: 'ErrDuplicateKey',
  ErrCompacted: 'ErrCompacted',
  ErrGRPCCompacted: 'ErrCompacted',
  ErrFutureRev: 'ErrFutureRev',
  ErrGRPCFutureRev: 'ErrFutureRev',
  'context.DeadlineExceeded': 'DeadlineExceeded',
  'context.Canceled': 'Canceled',
  ErrKeepAliveHalted: 'ErrKeepAliveHalted',
  ErrLocked: 'ErrLocked',
  ErrSessionExpired: 'ErrSessionExpired',
  ErrLostWatcher: 'ErrLostWatcher',
  ErrElectionNotLeader: 'ErrElectionNotLeader',
  ErrClientClosed: 'ErrClientClosed',
  ErrConnClosing: 'ErrConnClosing',
  ErrConnectionReset: 'ErrConnectionReset',
  ErrConnectionRefused: 'ErrConnectionRefused',
};

export const ANSWER_ERROR_NAMES: readonly string[] = Object.keys(ERROR_NAMES);

/** The simulation's name for an accepted error name; undefined for a name etcd does not have. */
export const errorNameOf = (accepted: string): string | undefined => ERROR_NAMES[accepted];

/** How an error reads in a verdict: the name etcd code compares against. */
export function etcdErrorName(simName: string): string {
  if (simName === 'DeadlineExceeded') return 'context.DeadlineExceeded';
  if (simName === 'Canceled') return 'context.Canceled';
  if (simName === 'ErrLeaseExists') return 'ErrLeaseExist';
  return simName;
}
