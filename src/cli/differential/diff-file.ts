/**
 * One scenario, both ways: replayed in the simulation (profile v3.4, matching etcd 3.4.23) and on a
 * fresh real etcd cluster, then paired up. Every process and directory of the real run is gone when this
 * returns or throws.
 */
import { performance } from 'node:perf_hooks';
import type { Micros } from '../../clock/time.js';
import { runScenario } from '../../scenario/replay/runner.js';
import type { ExpectedDifference, Scenario } from '../../scenario/types.js';
import type { EtcdBinaries } from './binaries.js';
import { ChildRegistry } from './children.js';
import { pairAssertions, pairEvents, sortDifferences, type AssertionPair, type EventPair } from './compare.js';
import { EtcdCluster } from './etcd-cluster.js';
import { simObserved } from './observed.js';
import type { PortPicker } from './ports.js';
import { replayOnEtcd, type RealRun } from './real-replay.js';
import { nowUs } from './wall-clock.js';

export interface FileDiff {
  readonly file: string;
  readonly name: string;
  readonly members: number;
  readonly etcdVersion: string;
  /** About the simulated side: the profile it was forced to, a setup error. */
  readonly simNotes: readonly string[];
  readonly assertions: readonly AssertionPair[];
  readonly events: readonly EventPair[];
  readonly realNotes: readonly string[];
  readonly simWallUs: Micros;
  readonly clusterStartUs: Micros;
  readonly realReplayUs: Micros;
  /**
   * Every assertion has the same verdict on both, and every event outside tolerance or on one side only
   * is one the file declares in `expected-differences`.
   */
  readonly agree: boolean;
  /** Every assertion has the same verdict on both. */
  readonly assertionsAgree: boolean;
  /** The paired event with the largest |Δ|. */
  readonly largest: EventPair | undefined;
  /** Paired events outside tolerance or with differing values, and events seen on one side only. */
  readonly eventsOutside: readonly EventPair[];
  /** Those of `eventsOutside` the file declares expected, with the declaration. */
  readonly expected: ReadonlyArray<{ readonly event: EventPair; readonly difference: ExpectedDifference }>;
  /** Those of `eventsOutside` nobody declared: each one is a disagreement. */
  readonly unexpected: readonly EventPair[];
  /** Declarations that matched no differing event (the difference did not show this time). */
  readonly unmatched: readonly ExpectedDifference[];
}

export interface DiffFileOptions {
  readonly binaries: EtcdBinaries;
  /** Progress lines (ports retried, leader moved). */
  readonly log?: (line: string) => void;
  readonly pickPort?: PortPicker;
  readonly leaderTimeoutMs?: number;
  /** Owns the real run's processes and dirs; closed before this returns. Tests pass one to inspect it. */
  readonly registry?: ChildRegistry;
}

export async function diffFile(s: Scenario, opts: DiffFileOptions): Promise<FileDiff> {
  const simStart = performance.now();
  // The real side's scenario clients are etcdctl processes given one endpoint; so are the simulation's here.
  const sim = runScenario(s, { profile: 'v3.4', clientEndpoints: 'one' });
  const simWallUs = Math.round((performance.now() - simStart) * 1000);
  const simNotes: string[] = [];
  if (s.profile !== 'v3.4')
    simNotes.push(`the file asks for profile ${s.profile}; the simulation runs it as v3.4 to match etcd 3.4.23`);
  if (sim.setupError !== undefined) simNotes.push(`simulation setup failed: ${sim.setupError}`);

  const registry = opts.registry ?? new ChildRegistry();
  let real: RealRun;
  let clusterStartUs: Micros;
  let realReplayUs: Micros;
  let etcdVersion = '3.4';
  try {
    const t0 = nowUs();
    const cluster = await EtcdCluster.start({
      members: s.cluster.members,
      flags: {
        heartbeatMs: s.cluster.heartbeatUs / 1000,
        electionMs: s.cluster.electionTimeoutUs / 1000,
        leaseCheckpoint: s.cluster.leaseCheckpoint,
        leaseCheckpointPersist: s.cluster.leaseCheckpointPersist,
        preVote: s.cluster.preVote,
        snapshotCount: s.cluster.snapshotCount,
      },
      binaries: opts.binaries,
      registry,
      ...(opts.pickPort !== undefined ? { pickPort: opts.pickPort } : {}),
      ...(opts.leaderTimeoutMs !== undefined ? { leaderTimeoutMs: opts.leaderTimeoutMs } : {}),
      ...(opts.log !== undefined ? { log: opts.log } : {}),
    });
    etcdVersion = (await cluster.members[0]!.rpc.status(2000).catch(() => undefined))?.version ?? etcdVersion;
    const t1 = nowUs();
    try {
      real = await replayOnEtcd(s, cluster, registry, opts.binaries);
    } finally {
      await cluster.stop();
    }
    clusterStartUs = t1 - t0;
    realReplayUs = nowUs() - t1;
  } finally {
    await registry.close();
  }

  const assertions = pairAssertions(sim.assertions, real.assertions);
  const events = pairEvents(simObserved(sim), real.observed);
  const paired = events.filter((e) => e.deltaUs !== undefined);
  const largest = paired.reduce<EventPair | undefined>(
    (m, e) => (m === undefined || Math.abs(e.deltaUs!) > Math.abs(m.deltaUs!) ? e : m),
    undefined,
  );
  const eventsOutside = events.filter((e) => !e.within);
  const { expected, unexpected, unmatched } = sortDifferences(eventsOutside, s.expectedDifferences ?? []);
  const assertionsAgree = sim.setupError === undefined && assertions.every((a) => a.agree);
  return {
    file: s.file,
    name: s.name,
    members: s.cluster.members,
    etcdVersion,
    simNotes,
    assertions,
    events,
    realNotes: real.notes,
    simWallUs,
    clusterStartUs,
    realReplayUs,
    agree: assertionsAgree && unexpected.length === 0,
    assertionsAgree,
    largest,
    eventsOutside,
    expected,
    unexpected,
    unmatched,
  };
}
