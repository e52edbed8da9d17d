// Benchmark: a revoke storm on the 3-member cluster — leases expiring together, and leases piled up by a
// leader change — reporting the drain, the peak revokes per sliding second, and the wall time.
import { MICROS_PER_SECOND, formatSeconds, seconds } from '../src/clock/time.js';
import { maxInWindow, runStorm, type StormSpec } from '../src/properties/storm/index.js';
import { report, type BenchResult } from './report.js';

const N = Number(process.env.STORM_CLUSTER_LEASES ?? 1_000_000);

function one(name: string, spec: StormSpec): BenchResult {
  const t0 = performance.now();
  const run = runStorm({ ...spec, keepEvents: false });
  const wall = (performance.now() - t0) / 1000;
  return report(name, {
    leases: spec.leases,
    revoked: run.revoked,
    'drain s': run.drainedAtUs === undefined ? 'unfinished' : formatSeconds(run.drainedAtUs - run.firstDeadlineUs),
    'peak revokes/s': maxInWindow(run.revokeTimes, MICROS_PER_SECOND).count,
    'wall s': wall.toFixed(1),
    'virtual s per wall s': Math.round(run.cluster.now() / MICROS_PER_SECOND / wall),
    'peak RSS MiB': Math.round(process.memoryUsage().rss / 2 ** 20),
  });
}

/** STORM_CLUSTER_LEASES sets the size (default 1,000,000). */
export function clusterStorm(): BenchResult[] {
  const drainUs = seconds(N / 700 + 120);
  return [
    one('cluster-storm together', { leases: N, ttl: 5, untilUs: seconds(10) + drainUs }),
    // Granted over 20 s, then a transfer: Promote puts every deadline at promote + 1 s + 60 s and spreads them.
    one('cluster-storm piled', {
      leases: N,
      ttl: 60,
      grantSpanUs: seconds(20),
      transferAtUs: seconds(30),
      untilUs: seconds(100) + drainUs,
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) clusterStorm();
