import { MICROS_PER_MS, type Micros } from '../../clock/time.js';
import { minLeaseTTLFor, reqTimeoutUs } from '../../lessor/config.js';
import { NO_BUGS, type BugSet } from '../../switches/bugs.js';
import { NO_FIXES, type FixSet } from '../../switches/fixes.js';
import { V3_5, type Profile } from '../../switches/profile.js';

/** One member's settings: etcd's flags and the server-derived lessor values (docs/lessor.md §1.2). */
export interface ServerConfig {
  readonly heartbeatMs: number;
  readonly electionMs: number;
  readonly preVote: boolean;
  /** WAL write latency: a member acknowledges an append only after it. */
  readonly fsyncUs: Micros;
  /** --experimental-enable-lease-checkpoint */
  readonly leaseCheckpoint: boolean;
  /** --experimental-enable-lease-checkpoint-persist */
  readonly leaseCheckpointPersist: boolean;
  /** LessorConfig.CheckpointInterval (no flag in etcd; 0 means 5 min). */
  readonly checkpointIntervalUs: Micros;
  readonly leaseRevokeRate: number;
  /** ExpiredLeasesRetryInterval; undefined means what etcd passes: ReqTimeout(). */
  readonly expiredLeaseRetryUs: Micros | undefined;
  readonly clusterVersion: string | undefined;
  /**
   * --snapshot-count: a snapshot (which saves the consistent index) once this many entries are applied since the last.
   */
  readonly snapshotCount: number;
  /**
   * --initial-election-tick-advance (default true): a restarted member of a multi-member cluster
   * fast-forwards electionTicks − 2 ticks once more than one peer is active (a single member always
   * fast-forwards electionTicks − 1).
   */
  readonly initialElectionTickAdvance: boolean;
  readonly profile: Profile;
  /** Historical bugs switched on (src/switches/bugs.ts), for every layer of the member. */
  readonly bugs: BugSet;
  /** Proposed fixes switched on (src/switches/fixes.ts), for every layer of the member. */
  readonly fixes: FixSet;
}

/** etcdserver.DefaultSnapshotCount (3.4.23 and 3.5.33). */
export const DEFAULT_SNAPSHOT_COUNT = 100_000;

export const defaultServerConfig: ServerConfig = {
  heartbeatMs: 100,
  electionMs: 1000,
  preVote: false,
  fsyncUs: 0,
  leaseCheckpoint: false,
  leaseCheckpointPersist: false,
  checkpointIntervalUs: 0,
  leaseRevokeRate: 1000,
  expiredLeaseRetryUs: undefined,
  clusterVersion: undefined,
  snapshotCount: DEFAULT_SNAPSHOT_COUNT,
  initialElectionTickAdvance: true,
  profile: V3_5,
  bugs: NO_BUGS,
  fixes: NO_FIXES,
};

/** Values etcd derives from the flags. */
export interface DerivedTimings {
  readonly tickUs: Micros;
  /** ElectionTimeout(): what Promote extends every lease by. */
  readonly electionTimeoutUs: Micros;
  /** ReqTimeout(): 5 s + 2 election timeouts. */
  readonly reqTimeoutUs: Micros;
  readonly minLeaseTTL: number;
  /** applyTimeout of LeaseRenew / TimeToLive and of the lease HTTP handler. */
  readonly applyTimeoutUs: Micros;
  /** isActive: a member whose last tick is this recent is taken to still lead. */
  readonly activeThresholdUs: Micros;
}

export function deriveTimings(c: ServerConfig): DerivedTimings {
  const electionTicks = Math.trunc(c.electionMs / c.heartbeatMs);
  return {
    tickUs: c.heartbeatMs * MICROS_PER_MS,
    electionTimeoutUs: electionTicks * c.heartbeatMs * MICROS_PER_MS,
    reqTimeoutUs: reqTimeoutUs(c.heartbeatMs, c.electionMs),
    minLeaseTTL: minLeaseTTLFor(c.heartbeatMs, c.electionMs),
    applyTimeoutUs: 1000 * MICROS_PER_MS,
    activeThresholdUs: 3 * c.heartbeatMs * MICROS_PER_MS,
  };
}
