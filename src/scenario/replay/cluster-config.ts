import { MICROS_PER_MS } from '../../clock/time.js';
import type { ClusterConfig } from '../../cluster/cluster.js';
import { isBugName } from '../../switches/bugs.js';
import { isFixName } from '../../switches/fixes.js';
import { PROFILES } from '../../switches/profile.js';
import type { Scenario } from '../types.js';

/** The cluster a scenario asks for: its `cluster:` block, profile and seed mapped onto etcd's settings. */
export function clusterConfigOf(s: Scenario, profile: Scenario['profile'], seed: number): ClusterConfig | string {
  const c = s.cluster;
  // etcd's --heartbeat-interval and --election-timeout are whole milliseconds.
  if (c.heartbeatUs % MICROS_PER_MS !== 0 || c.electionTimeoutUs % MICROS_PER_MS !== 0) {
    return "heartbeat and election-timeout must be whole milliseconds, as etcd's flags are";
  }
  if (c.electionTimeoutUs < c.heartbeatUs * 5) {
    // etcd refuses to start when the election timeout is under 5 heartbeats.
    return (
      `election-timeout must be at least 5 heartbeats, as etcd requires (got ` +
      `${c.electionTimeoutUs / 1000}ms for a ${c.heartbeatUs / 1000}ms heartbeat)`
    );
  }
  if (c.leaseCheckpointPersist && !c.leaseCheckpoint) {
    return 'setting lease-checkpoint-persist requires lease-checkpoint, as etcd refuses the flag on its own';
  }
  return {
    members: c.members,
    heartbeatMs: c.heartbeatUs / MICROS_PER_MS,
    electionMs: c.electionTimeoutUs / MICROS_PER_MS,
    preVote: c.preVote,
    fsyncUs: c.fsyncUs,
    leaseCheckpoint: c.leaseCheckpoint,
    leaseCheckpointPersist: c.leaseCheckpointPersist,
    checkpointIntervalUs: c.checkpointIntervalUs,
    leaseRevokeRate: c.revokeRatePerSecond,
    expiredLeaseRetryUs: c.expiredLeaseRetryUs,
    clusterVersion: c.clusterVersion,
    snapshotCount: c.snapshotCount,
    resumeOrder: c.resumeOrder,
    initialElectionTickAdvance: c.initialElectionTickAdvance,
    profile: PROFILES[profile],
    // The parser accepts only names from the bug and fix tables.
    bugs: new Set(s.bugs.filter(isBugName)),
    fixes: new Set((s.fixes ?? []).filter(isFixName)),
    latencyUs: c.latencyUs,
    jitterUs: c.jitterUs,
    lossProbability: c.lossProbability,
    seed,
  };
}
