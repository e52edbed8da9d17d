import type { ClusterConfig } from '../../cluster/cluster.js';
import { defaultClusterConfig } from '../../cluster/cluster.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { driftBound, type DriftBoundParams } from './bound.js';
import { measureDrift, type LeaseDrift } from './measure.js';
import { runDrift, type Fault } from './run.js';

export interface TightSearchOptions {
  readonly ttl: number;
  readonly leaderChanges: number;
  readonly cluster?: Partial<ClusterConfig>;
}

export interface TightRun {
  readonly drift: LeaseDrift;
  readonly params: DriftBoundParams;
  readonly boundUs: Micros;
  /** drift / bound. */
  readonly ratio: number;
  /** When each leader transfer was started. */
  readonly transfers: readonly Micros[];
  /** Cluster runs the search made. */
  readonly runs: number;
}

const GRANT_AT: Micros = MICROS_PER_SECOND;
const LEASE = 1n;

/**
 * A directed search for the worst drift: one lease, k leader transfers, each placed greedily. For the
 * next transfer it replays the schedule so far without it, takes every instant at which the current
 * primary would act on the lease — its run loop finding the lease expired, or proposing a checkpoint —
 * tries a transfer 1 µs before each, and keeps the one whose Promote sets the latest deadline. A
 * transfer just before the revoke (or before the checkpoint that would shorten the next reset) is the
 * latest a leader change can still extend the lease, so the search approaches driftBound.
 */
export function searchTightRun(o: TightSearchOptions): TightRun {
  const cfg = { ...defaultClusterConfig, ...o.cluster };
  const horizon = GRANT_AT + (o.leaderChanges + 2) * (o.ttl + 2) * MICROS_PER_SECOND + 10 * MICROS_PER_SECOND;
  let runs = 0;
  const run = (transfers: readonly Micros[], untilUs: Micros) => {
    runs++;
    const faults: Fault[] = transfers.map((at) => ({ at, kind: 'transfer' }));
    return runDrift({
      cluster: o.cluster ?? {},
      leases: [{ id: LEASE, ttl: o.ttl, at: GRANT_AT }],
      faults,
      untilUs,
      kinds: ['lease-expired', 'lessor-checkpoint-propose'],
    });
  };
  const transfers: Micros[] = [];
  for (let i = 1; i <= o.leaderChanges; i++) {
    const probe = run(transfers, horizon);
    const now = measureDrift(probe.events)[0]!;
    const primary = now.promotions.at(-1)?.member ?? 'n1';
    const since = transfers.at(-1) ?? GRANT_AT;
    const end = now.revokeUs ?? horizon;
    const candidates = probe.events
      .filter((e) => e.member === primary && e.t > since && e.t <= end)
      .filter((e) => (e.kind === 'lease-expired' && e.lease === LEASE) || e.kind === 'lessor-checkpoint-propose')
      .map((e) => e.t - 1);
    let best: { at: Micros; expiry: Micros } | undefined;
    for (const at of candidates) {
      const d = measureDrift(run([...transfers, at], at + MICROS_PER_SECOND).events)[0]!;
      const p = d.promotions[i - 1];
      if (d.promotions.length === i && p !== undefined && (best === undefined || p.expiry > best.expiry))
        best = { at, expiry: p.expiry };
    }
    if (best === undefined) break;
    transfers.push(best.at);
  }
  const drift = measureDrift(run(transfers, horizon).events)[0]!;
  const commitLatencyUs = 2 * (cfg.latencyUs + cfg.jitterUs) + 2 * cfg.fsyncUs;
  const params: DriftBoundParams = {
    ttlUs: o.ttl * MICROS_PER_SECOND,
    electionTimeoutUs: cfg.electionMs * 1000,
    commitLatencyUs,
    ...(cfg.leaseCheckpoint ? { loopWorkUs: commitLatencyUs, checkpointIntervalUs: cfg.checkpointIntervalUs } : {}),
    leaderChanges: drift.leaderChanges,
    fullTtlChanges: drift.fullTtlChanges,
    gapUs: drift.gapUs,
  };
  const boundUs = driftBound(params);
  return { drift, params, boundUs, ratio: (drift.driftUs ?? Number.NaN) / boundUs, transfers, runs };
}
