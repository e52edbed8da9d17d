/**
 * One scenario, both ways: replayed in the simulation (profile v3.4, matching etcd 3.4.23) and on a
 * fresh real etcd cluster, then paired up. Every process and directory of the real run is gone when this
 * returns or throws.
 */
import { performance } from 'node:perf_hooks';
import type { Micros } from '../clock/time.js';
import { runScenario } from '../scenario/replay/runner.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { RACE_BRANCHES, type DeclaredRace, type ExpectedDifference, type Scenario } from '../scenario/types.js';
import type { EtcdBinaries } from './binaries.js';
import { ChildRegistry } from './children.js';
import { pairAssertions, pairEvents, sortDifferences, type AssertionPair, type EventPair } from './compare.js';
import { EtcdCluster } from './etcd-cluster.js';
import { simObserved } from './observed.js';
import type { PortPicker } from './ports.js';
import { LoadProbe, type LoadReading } from './load-probe.js';
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
  /**
   * agree; disagree; or timing-under-load: every assertion agrees, every undeclared difference is an
   * event both sides saw with the same value at times further apart than its tolerance, and the driver
   * measured its host busy while etcd ran (`load`). Never counted as agreement.
   */
  readonly verdict: 'agree' | 'disagree' | 'timing-under-load';
  /** The driver's timer lag while the real replay ran. */
  readonly load: LoadReading;
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
  /**
   * A declared race (`races:`): the simulation ran down each branch, and this diff is the comparison with
   * the branch etcd matched (the first that agrees), else with the one closest to it (most assertions
   * agreeing); `others` says how each other branch compared.
   */
  readonly race?: {
    readonly declared: DeclaredRace;
    readonly branch: string;
    readonly others: ReadonlyArray<{
      readonly branch: string;
      readonly agree: boolean;
      readonly assertionsAgreeing: number;
    }>;
  };
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
  // A declared race: one simulation per branch, each with the cluster forced down it.
  const declared = s.races?.find((r) => r.race === 'resume-order');
  const branches: ReadonlyArray<{ branch: string; scenario: Scenario }> =
    declared === undefined
      ? [{ branch: '', scenario: s }]
      : RACE_BRANCHES['resume-order'].map((b) => ({
          branch: b,
          scenario: { ...s, cluster: { ...s.cluster, resumeOrder: b } },
        }));
  // The real side's scenario clients are etcdctl processes given one endpoint; so are the simulation's here.
  const sims = branches.map((b) => ({
    ...b,
    sim: runScenario(b.scenario, { profile: 'v3.4', clientEndpoints: 'one' }),
  }));
  const simWallUs = Math.round((performance.now() - simStart) * 1000);
  const simNotes: string[] = [];
  if (s.profile !== 'v3.4')
    simNotes.push(`the file asks for profile ${s.profile}; the simulation runs it as v3.4 to match etcd 3.4.23`);
  for (const { branch, sim } of sims)
    if (sim.setupError !== undefined)
      simNotes.push(`simulation${branch === '' ? '' : ` (${branch})`} setup failed: ${sim.setupError}`);

  const registry = opts.registry ?? new ChildRegistry();
  let real: RealRun;
  let clusterStartUs: Micros;
  let realReplayUs: Micros;
  let etcdVersion = '3.4';
  let load: LoadReading | undefined;
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
        initialElectionTickAdvance: s.cluster.initialElectionTickAdvance,
      },
      binaries: opts.binaries,
      registry,
      ...(opts.pickPort !== undefined ? { pickPort: opts.pickPort } : {}),
      ...(opts.leaderTimeoutMs !== undefined ? { leaderTimeoutMs: opts.leaderTimeoutMs } : {}),
      ...(opts.log !== undefined ? { log: opts.log } : {}),
    });
    etcdVersion = (await cluster.members[0]!.rpc.status(2000).catch(() => undefined))?.version ?? etcdVersion;
    const t1 = nowUs();
    const probe = new LoadProbe();
    probe.start();
    try {
      real = await replayOnEtcd(s, cluster, registry, opts.binaries);
    } finally {
      load = probe.stop();
      await cluster.stop();
    }
    clusterStartUs = t1 - t0;
    realReplayUs = nowUs() - t1;
  } finally {
    await registry.close();
  }
  // A member someone else killed (or that died) mid-run: the real run was not the scenario's.
  const unplanned = registry.unplannedExits().map((u) => `unplanned exit of ${u}: not a step of the scenario`);

  const compared = sims.map(({ branch, sim }) => ({ branch, ...compareWith(s, sim, real) }));
  const chosen =
    compared.find((c) => c.agree) ??
    compared.reduce((m, c) =>
      c.assertions.filter((a) => a.agree).length > m.assertions.filter((a) => a.agree).length ? c : m,
    );
  const { branch, ...chosenComparison } = chosen;
  // An unplanned exit makes the real run another scenario's: never agreement, not even timing-only.
  const comparison = unplanned.length === 0 ? chosenComparison : { ...chosenComparison, agree: false };
  const verdict = unplanned.length === 0 ? verdictOf(comparison, load!) : 'disagree';
  return {
    file: s.file,
    name: s.name,
    members: s.cluster.members,
    etcdVersion,
    simNotes,
    realNotes: [...unplanned, ...real.notes],
    simWallUs,
    clusterStartUs,
    realReplayUs,
    ...comparison,
    verdict,
    load: load!,
    ...(declared === undefined
      ? {}
      : {
          race: {
            declared,
            branch,
            others: compared
              .filter((c) => c !== chosen)
              .map((c) => ({
                branch: c.branch,
                agree: c.agree,
                assertionsAgreeing: c.assertions.filter((a) => a.agree).length,
              })),
          },
        }),
  };
}

/**
 * agree; timing-under-load when every assertion agrees, every undeclared difference is an event both
 * sides saw with the same value (only its time is outside tolerance) and the host was busy; else disagree.
 */
export function verdictOf(
  c: Pick<FileDiff, 'agree' | 'assertionsAgree' | 'unexpected'>,
  load: Pick<LoadReading, 'busy'>,
): FileDiff['verdict'] {
  if (c.agree) return 'agree';
  const timingOnly =
    c.assertionsAgree && c.unexpected.every((e) => e.sim !== undefined && e.real !== undefined && e.valuesAgree);
  return timingOnly && load.busy ? 'timing-under-load' : 'disagree';
}

type Comparison = Pick<
  FileDiff,
  | 'assertions'
  | 'events'
  | 'agree'
  | 'assertionsAgree'
  | 'largest'
  | 'eventsOutside'
  | 'expected'
  | 'unexpected'
  | 'unmatched'
>;

/** One simulated run against the real one: assertions and events paired and judged. */
function compareWith(s: Scenario, sim: RunResult, real: RealRun): Comparison {
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
    assertions,
    events,
    agree: assertionsAgree && unexpected.length === 0,
    assertionsAgree,
    largest,
    eventsOutside,
    expected,
    unexpected,
    unmatched,
  };
}
