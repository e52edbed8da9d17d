/**
 * etcd's tests/integration/v3_lease_test.go restated: each test function with the scenario that restates
 * it and the profiles it applies to, or why it cannot be expressed. Read at v3.5.33. 3.4.23's
 * integration/v3_lease_test.go differs in: TestV3LeasePrmote (so spelled) for TestV3LeasePromote;
 * SnapshotCount 5 in TestV3LeaseCheckpoint's cluster (kept in its scenarios for both profiles); no
 * *WithClusterClient stress variants and no TestV3LeaseTimeToLiveWithLeaderChanged; a zero initial
 * deadline in TestV3LeaseFailover (its first renewal succeeds either way).
 */
import type { RestatedFile } from '../restated.js';

const BOTH = ['v3.4', 'v3.5'] as const;
/** Tests of fixes 3.4.23 predates (it has no such test function either). */
const V35 = ['v3.5'] as const;

export const V3_LEASE: RestatedFile = {
  source: 'tests/integration/v3_lease_test.go@v3.5.33',
  tests: [
    { test: 'TestV3LeasePromote', file: 'lease-promote.yaml', profiles: BOTH },
    { test: 'TestV3LeaseRevoke', file: 'lease-revoke.yaml', profiles: BOTH },
    { test: 'TestV3LeaseGrantByID', file: 'lease-grant-by-id.yaml', profiles: BOTH },
    { test: 'TestV3LeaseNegativeID', file: 'lease-negative-id.yaml', profiles: BOTH },
    { test: 'TestV3LeaseExpire', file: 'lease-expire.yaml', profiles: BOTH },
    { test: 'TestV3LeaseKeepAlive', file: 'lease-keepalive.yaml', profiles: BOTH },
    {
      test: 'TestV3LeaseCheckpoint/Checkpointing disabled, lease TTL is reset',
      file: 'lease-checkpoint-disabled.yaml',
      profiles: BOTH,
    },
    {
      test: 'TestV3LeaseCheckpoint/Checkpointing enabled 10s, lease TTL is preserved after leader change',
      file: 'lease-checkpoint-enabled.yaml',
      profiles: BOTH,
    },
    {
      test:
        'TestV3LeaseCheckpoint/Checkpointing enabled 10s with persist, ' +
        'lease TTL is preserved after cluster restart',
      file: 'lease-checkpoint-persist.yaml',
      profiles: BOTH,
    },
    {
      test: 'TestV3LeaseCheckpoint/Checkpointing enabled 10s, lease TTL is reset after restart',
      file: 'lease-checkpoint-restart-reset.yaml',
      profiles: BOTH,
    },
    {
      test: 'TestV3LeaseCheckpoint/Checkpointing enabled 10s, lease TTL is preserved after 2 leader changes',
      file: 'lease-checkpoint-two-changes.yaml',
      profiles: BOTH,
    },
    { test: 'TestV3LeaseExists', file: 'lease-exists.yaml', profiles: BOTH },
    { test: 'TestV3LeaseLeases', file: 'lease-leases.yaml', profiles: BOTH },
    { test: 'TestV3LeaseRenewStress', file: 'lease-renew-stress.yaml', profiles: BOTH },
    {
      // 3.5 only in etcd's file; the race it guards against is the same in 3.4, so both profiles run it.
      test: 'TestV3LeaseRenewStressWithClusterClient',
      file: 'lease-renew-stress-with-cluster-client.yaml',
      profiles: BOTH,
    },
    { test: 'TestV3LeaseTimeToLiveStress', file: 'lease-time-to-live-stress.yaml', profiles: BOTH },
    {
      // 3.5 only in etcd's file, as above.
      test: 'TestV3LeaseTimeToLiveStressWithClusterClient',
      file: 'lease-time-to-live-stress-with-cluster-client.yaml',
      profiles: BOTH,
    },
    { test: 'TestV3PutOnNonExistLease', file: 'put-on-non-exist-lease.yaml', profiles: BOTH },
    { test: 'TestV3GetNonExistLease', file: 'get-non-exist-lease.yaml', profiles: BOTH },
    { test: 'TestV3LeaseSwitch', file: 'lease-switch.yaml', profiles: BOTH },
    { test: 'TestV3LeaseFailover', file: 'lease-failover.yaml', profiles: BOTH },
    { test: 'TestV3LeaseRequireLeader', file: 'lease-require-leader.yaml', profiles: BOTH },
    { test: 'TestV3LeaseRecoverAndRevoke', file: 'lease-recover-and-revoke.yaml', profiles: BOTH },
    { test: 'TestV3LeaseRevokeAndRecover', file: 'lease-revoke-and-recover.yaml', profiles: BOTH },
    {
      test: 'TestV3LeaseRecoverKeyWithDetachedLease',
      file: 'lease-recover-key-with-detached-lease.yaml',
      profiles: BOTH,
    },
    {
      test: 'TestV3LeaseRecoverKeyWithMutipleLease',
      file: 'lease-recover-key-with-multiple-lease.yaml',
      profiles: BOTH,
    },
    {
      test: 'TestV3LeaseTimeToLiveWithLeaderChanged/normal',
      file: 'lease-time-to-live-with-leader-changed-normal.yaml',
      profiles: V35,
    },
    {
      test: 'TestV3LeaseTimeToLiveWithLeaderChanged/forward',
      file: 'lease-time-to-live-with-leader-changed-forward.yaml',
      profiles: V35,
    },
  ],
};
