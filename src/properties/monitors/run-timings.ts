/** The etcd timings a run's properties are judged with, derived from its scenario's cluster block. */
import { MICROS_PER_MS, MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { clusterVersionAtLeast, minLeaseTTLFor, reqTimeoutUs, runLoopPeriodUs } from '../../lessor/config.js';
import type { Scenario } from '../../scenario/types.js';

export interface RunTimings {
  /** ElectionTimeout(): what Promote extends leases by. */
  readonly electionUs: Micros;
  /** ReqTimeout(): request deadline and the expired-lease retry interval. */
  readonly reqTimeoutUs: Micros;
  readonly retryUs: Micros;
  /** The lessor's run-loop period (500 ms). */
  readonly loopUs: Micros;
  readonly heartbeatUs: Micros;
  readonly checkpointIntervalUs: Micros;
  readonly checkpointing: boolean;
  /** Checkpointed remaining TTLs survive restarts (the persist flag or cluster version ≥ 3.6). */
  readonly persistCheckpoints: boolean;
  readonly revokeRate: number;
  readonly minTtlSeconds: number;
  /**
   * Room for a raft round trip and the followers learning the commit: a heartbeat plus four one-way
   * delays at their worst (latency + jitter + fsync), plus a millisecond.
   */
  readonly commitSlackUs: Micros;
}

export function runTimings(s: Scenario): RunTimings {
  const c = s.cluster;
  const hbMs = c.heartbeatUs / MICROS_PER_MS;
  const etMs = c.electionTimeoutUs / MICROS_PER_MS;
  const electionUs = Math.trunc(etMs / hbMs) * c.heartbeatUs;
  const req = reqTimeoutUs(hbMs, etMs);
  return {
    electionUs,
    reqTimeoutUs: req,
    retryUs: c.expiredLeaseRetryUs ?? req,
    loopUs: runLoopPeriodUs,
    heartbeatUs: c.heartbeatUs,
    checkpointIntervalUs: c.checkpointIntervalUs,
    checkpointing: c.leaseCheckpoint,
    // What a fixed etcd does with these flags; bug switches never enter a property's expectations.
    persistCheckpoints: c.leaseCheckpointPersist || clusterVersionAtLeast(c.clusterVersion, 3, 6),
    revokeRate: c.revokeRatePerSecond,
    minTtlSeconds: minLeaseTTLFor(hbMs, etMs),
    commitSlackUs: c.heartbeatUs + 4 * (c.latencyUs + c.jitterUs + c.fsyncUs) + MICROS_PER_MS,
  };
}

/** Whole seconds, rounded up. */
export const ceilSeconds = (us: Micros): number => Math.ceil(us / MICROS_PER_SECOND);
