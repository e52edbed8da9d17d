import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { runLoopPeriodUs } from '../../lessor/config.js';

/**
 * What the drift bound depends on (docs/drift.md derives it). Times are µs; counts are per lease, over
 * its life from the anchor (grant or last acknowledged renewal) to the revoke.
 */
export interface DriftBoundParams {
  /** TTL: the granted TTL. */
  readonly ttlUs: Micros;
  /** ET: the election timeout, Promote's `extend`. */
  readonly electionTimeoutUs: Micros;
  /** P: the run loop's wait between iterations (500 ms). */
  readonly runLoopPeriodUs?: Micros;
  /** C: a revoke (or checkpoint) proposal to its apply on the leader, including the 16-in-flight queue. */
  readonly commitLatencyUs: Micros;
  /** W: the longest run-loop iteration (it blocks on checkpoint proposals); 0 without checkpointing. */
  readonly loopWorkUs?: Micros;
  /** CPI, when checkpointing is on. */
  readonly checkpointIntervalUs?: Micros;
  /** Δ: the longest delay Promote's pile-up spreading adds (0 below leaseRevokeRate leases). */
  readonly spreadDelayUs?: Micros;
  /** RT and f: the retry interval and how many revoke attempts failed without a leader change. */
  readonly retryIntervalUs?: Micros;
  readonly failedAttempts?: number;
  /** k: Promote calls during the lease's life. */
  readonly leaderChanges: number;
  /** k_T ≤ k: those whose Promote used the full TTL (all k without checkpointing). Default k. */
  readonly fullTtlChanges?: number;
  /** G: the longest time from a disturbance of the primary to the next Promote (or to the revoke). */
  readonly gapUs?: Micros;
}

/** Lag = P + W + C: from a deadline to the revoke applied on a healthy, stable primary. */
export function revokeLag(p: DriftBoundParams): Micros {
  return (p.runLoopPeriodUs ?? runLoopPeriodUs) + (p.loopWorkUs ?? 0) + p.commitLatencyUs;
}

/**
 * What one Promote can add beyond the previous deadline when it reuses a checkpoint taken by the
 * previous leader: that leader checkpoints every CPI + C + one run-loop wait, and the value is ceil()ed
 * (up to 1 s more). Never more than a full TTL.
 */
export function checkpointedStepUs(p: DriftBoundParams): Micros {
  if (p.checkpointIntervalUs === undefined) return p.ttlUs;
  return Math.min(p.ttlUs, p.checkpointIntervalUs + p.commitLatencyUs + MICROS_PER_SECOND);
}

/**
 * The upper bound on drift = revoke − anchor − TTL:
 *
 *   k·(ET + Δ + G + Lag) + k_T·TTL + (k − k_T)·min(TTL, CPI + C + 1 s) + Lag + G + f·RT
 *
 * Without checkpointing k_T = k, so the bound grows by TTL + ET + Lag + G per leader change, without
 * limit in k. The bound is reached (docs/drift.md; searchTightRun finds runs within a few per cent).
 */
export function driftBound(p: DriftBoundParams): Micros {
  const k = p.leaderChanges;
  const kT = p.checkpointIntervalUs === undefined ? k : Math.min(k, p.fullTtlChanges ?? k);
  const lag = revokeLag(p);
  const g = p.gapUs ?? 0;
  const perChange = p.electionTimeoutUs + (p.spreadDelayUs ?? 0) + g + lag;
  return (
    k * perChange +
    kT * p.ttlUs +
    (k - kT) * checkpointedStepUs(p) +
    lag +
    g +
    (p.failedAttempts ?? 0) * (p.retryIntervalUs ?? 0)
  );
}
