/**
 * etcd's tests/integration/clientv3/lease/ (read at tag v3.5.33, the newest v3.5 tag in the mirror):
 * lease_test.go restated as the scenarios of this folder, one per test function, in both profiles (the
 * same tests exist in v3.4's clientv3/integration/lease_test.go); leasing_test.go listed function by
 * function with the reason it cannot be expressed. main_test.go holds only TestMain and doc.go no code.
 */
import type { RestatedFile } from '../restated.js';

const BOTH = ['v3.4', 'v3.5'] as const;

export const LEASE_TEST: RestatedFile = {
  source: 'tests/integration/clientv3/lease/lease_test.go@v3.5.33',
  tests: [
    { test: 'TestLeaseNotFoundError', file: 'lease-not-found-error.yaml', profiles: BOTH },
    { test: 'TestLeaseGrant', file: 'lease-grant.yaml', profiles: BOTH },
    { test: 'TestLeaseRevoke', file: 'lease-revoke.yaml', profiles: BOTH },
    { test: 'TestLeaseKeepAliveOnce', file: 'lease-keep-alive-once.yaml', profiles: BOTH },
    { test: 'TestLeaseKeepAlive', file: 'lease-keep-alive.yaml', profiles: BOTH },
    { test: 'TestLeaseKeepAliveOneSecond', file: 'lease-keep-alive-one-second.yaml', profiles: BOTH },
    {
      test: 'TestLeaseKeepAliveHandleFailure',
      reason:
        'skipped upstream (t.Skip: "test it when we have a cluster client"); it asserts nothing in etcd\'s own run',
    },
    { test: 'TestLeaseKeepAliveNotFound', file: 'lease-keep-alive-not-found.yaml', profiles: BOTH },
    { test: 'TestLeaseGrantErrConnClosed', file: 'lease-grant-err-conn-closed.yaml', profiles: BOTH },
    { test: 'TestLeaseKeepAliveFullResponseQueue', file: 'lease-keep-alive-full-response-queue.yaml', profiles: BOTH },
    { test: 'TestLeaseGrantNewAfterClose', file: 'lease-grant-new-after-close.yaml', profiles: BOTH },
    { test: 'TestLeaseRevokeNewAfterClose', file: 'lease-revoke-new-after-close.yaml', profiles: BOTH },
    {
      test: 'TestLeaseKeepAliveCloseAfterDisconnectRevoke',
      file: 'lease-keep-alive-close-after-disconnect-revoke.yaml',
      profiles: BOTH,
    },
    { test: 'TestLeaseKeepAliveInitTimeout', file: 'lease-keep-alive-init-timeout.yaml', profiles: BOTH },
    { test: 'TestLeaseKeepAliveTTLTimeout', file: 'lease-keep-alive-ttl-timeout.yaml', profiles: BOTH },
    { test: 'TestLeaseTimeToLive', file: 'lease-time-to-live.yaml', profiles: BOTH },
    { test: 'TestLeaseTimeToLiveLeaseNotFound', file: 'lease-time-to-live-lease-not-found.yaml', profiles: BOTH },
    { test: 'TestLeaseLeases', file: 'lease-leases.yaml', profiles: BOTH },
    { test: 'TestLeaseRenewLostQuorum', file: 'lease-renew-lost-quorum.yaml', profiles: BOTH },
    { test: 'TestLeaseKeepAliveLoopExit', file: 'lease-keep-alive-loop-exit.yaml', profiles: BOTH },
    { test: 'TestV3LeaseFailureOverlap', file: 'lease-failure-overlap.yaml', profiles: BOTH },
    { test: 'TestLeaseWithRequireLeader', file: 'lease-with-require-leader.yaml', profiles: BOTH },
  ],
};

/**
 * leasing_test.go tests clientv3/leasing, a client-side KV cache that takes ownership of keys through
 * leases and serves reads locally until another client's write revokes it. The simulation models
 * clientv3's lease and KV calls, not that cache (its owner keys under a prefix, its session and its
 * invalidation by watch), so none of these can be expressed; the lease behaviour beneath it is what
 * lease_test.go and the v3 lease tests cover.
 */
const LEASING_CACHE = 'clientv3/leasing (a client-side, lease-owned KV cache) is not in the model';

export const LEASING_TEST: RestatedFile = {
  source: 'tests/integration/clientv3/lease/leasing_test.go@v3.5.33',
  tests: [
    { test: 'TestLeasingPutGet', reason: LEASING_CACHE },
    { test: 'TestLeasingInterval', reason: LEASING_CACHE },
    { test: 'TestLeasingPutInvalidateNew', reason: LEASING_CACHE },
    { test: 'TestLeasingPutInvalidateExisting', reason: LEASING_CACHE },
    { test: 'TestLeasingGetNoLeaseTTL', reason: LEASING_CACHE },
    { test: 'TestLeasingGetSerializable', reason: LEASING_CACHE },
    { test: 'TestLeasingPrevKey', reason: LEASING_CACHE },
    { test: 'TestLeasingRevGet', reason: LEASING_CACHE },
    { test: 'TestLeasingGetWithOpts', reason: LEASING_CACHE },
    { test: 'TestLeasingConcurrentPut', reason: LEASING_CACHE },
    { test: 'TestLeasingDisconnectedGet', reason: LEASING_CACHE },
    { test: 'TestLeasingDeleteOwner', reason: LEASING_CACHE },
    { test: 'TestLeasingDeleteNonOwner', reason: LEASING_CACHE },
    { test: 'TestLeasingOverwriteResponse', reason: LEASING_CACHE },
    { test: 'TestLeasingOwnerPutResponse', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnOwnerGetRange', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnOwnerGet', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnOwnerDeleteRange', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnOwnerDelete', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnOwnerIf', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnCancel', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnNonOwnerPut', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnRandIfThenOrElse', reason: LEASING_CACHE },
    { test: 'TestLeasingOwnerPutError', reason: LEASING_CACHE },
    { test: 'TestLeasingOwnerDeleteError', reason: LEASING_CACHE },
    { test: 'TestLeasingNonOwnerPutError', reason: LEASING_CACHE },
    { test: 'TestLeasingOwnerDeletePrefix', reason: LEASING_CACHE },
    { test: 'TestLeasingOwnerDeleteFrom', reason: LEASING_CACHE },
    { test: 'TestLeasingDeleteRangeBounds', reason: LEASING_CACHE },
    { test: 'TestLeasingDeleteRangeContendTxn', reason: LEASING_CACHE },
    { test: 'TestLeaseDeleteRangeContendDel', reason: LEASING_CACHE },
    { test: 'TestLeasingPutGetDeleteConcurrent', reason: LEASING_CACHE },
    { test: 'TestLeasingReconnectOwnerRevoke', reason: LEASING_CACHE },
    { test: 'TestLeasingReconnectOwnerRevokeCompact', reason: LEASING_CACHE },
    { test: 'TestLeasingReconnectOwnerConsistency', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnAtomicCache', reason: LEASING_CACHE },
    { test: 'TestLeasingReconnectTxn', reason: LEASING_CACHE },
    { test: 'TestLeasingReconnectNonOwnerGet', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnRangeCmp', reason: LEASING_CACHE },
    { test: 'TestLeasingDo', reason: LEASING_CACHE },
    { test: 'TestLeasingTxnOwnerPutBranch', reason: LEASING_CACHE },
    { test: 'TestLeasingSessionExpire', reason: LEASING_CACHE },
    { test: 'TestLeasingSessionExpireCancel', reason: LEASING_CACHE },
  ],
};
