// Drift over random schedules of leader changes and faults on the real cluster: never above driftBound,
// never below zero (no early expiry) unless a stale checkpoint (bug catalogue A7) explains it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MICROS_PER_SECOND, ms, seconds, type Micros } from '../../../src/clock/time.js';
import { V3_4, V3_5 } from '../../../src/switches/profile.js';
import { driftBound, measureDrift, runDrift, type Fault } from '../../../src/properties/drift/index.js';
import { fcParams } from '../../support/fc.js';

const duration = fc.integer({ min: ms(100), max: seconds(3) });
// Faults start after every grant (1 s to 1.7 s) has committed.
const at = fc.integer({ min: seconds(2), max: seconds(25) });
const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ at, kind: fc.constant('transfer' as const) }),
  fc.record({ at, kind: fc.constant('crash-leader' as const), forUs: duration }),
  fc.record({ at, kind: fc.constant('pause-leader' as const), forUs: duration }),
  fc.record({ at, kind: fc.constant('pause-follower' as const), forUs: duration }),
  fc.record({ at, kind: fc.constant('partition-leader' as const), forUs: duration }),
  fc.record({
    at,
    kind: fc.constant('stall-leader' as const),
    loop: fc.constantFrom('raft' as const, 'apply' as const),
    forUs: duration,
  }),
);

const scenario = fc.record({
  profile: fc.constantFrom(V3_5, V3_4),
  checkpoint: fc.option(
    fc.record({ intervalUs: fc.constantFrom(seconds(3.2), seconds(4.501)), persist: fc.boolean() }),
    { nil: undefined },
  ),
  latencyUs: fc.constantFrom(ms(1), ms(3)),
  fsyncUs: fc.constantFrom(0, 300),
  leases: fc.array(fc.record({ ttl: fc.integer({ min: 2, max: 14 }), delayUs: fc.integer({ min: 0, max: ms(700) }) }), {
    minLength: 1,
    maxLength: 3,
  }),
  renews: fc.array(
    fc.record({
      lease: fc.nat(2),
      at: fc.integer({ min: seconds(1.5), max: seconds(9) }),
      via: fc.constantFrom('n1', 'n2', 'n3'),
    }),
    { maxLength: 3 },
  ),
  faults: fc.array(fault, { maxLength: 5 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function run(s: Scenario) {
  const leases = s.leases.map((l, i) => ({ id: BigInt(i + 1), ttl: l.ttl, at: seconds(1) + l.delayUs }));
  const faultEnd = Math.max(0, ...s.faults.map((f) => f.at + ('forUs' in f ? f.forUs : 0)));
  const untilUs = Math.max(seconds(30), faultEnd) + 3 * seconds(14 + 3) + seconds(10);
  const r = runDrift({
    cluster: {
      profile: s.profile,
      latencyUs: s.latencyUs,
      fsyncUs: s.fsyncUs,
      ...(s.checkpoint === undefined
        ? {}
        : {
            leaseCheckpoint: true,
            checkpointIntervalUs: s.checkpoint.intervalUs,
            leaseCheckpointPersist: s.checkpoint.persist,
          }),
    },
    leases,
    renews: s.renews
      .filter((r) => r.lease < leases.length)
      .map((r) => ({ id: BigInt(r.lease + 1), at: r.at, via: r.via })),
    faults: s.faults,
    untilUs,
  });
  // C: one round trip to a follower plus a WAL write on each side, each possibly behind one in flight.
  const commitLatencyUs: Micros = 2 * s.latencyUs + 2 * s.fsyncUs;
  return { r, leases, commitLatencyUs };
}

describe('TTL drift over random leader changes, pauses, partitions and stalls', () => {
  it(
    'every lease is revoked, with 0 ≤ drift ≤ driftBound (C4 ' +
      'stale revokes and A7 stale checkpoints excepted below zero)',
    () => {
      let runs = 0;
      let withChanges = 0;
      fc.assert(
        fc.property(scenario, (s) => {
          const { r, leases, commitLatencyUs } = run(s);
          const drifts = measureDrift(r.events);
          expect(drifts.map((d) => d.lease).sort()).toEqual(leases.map((l) => l.id));
          for (const d of drifts) {
            expect(d.driftUs, `lease ${d.lease} never revoked`).toBeDefined();
            const bound = driftBound({
              ttlUs: d.ttl * MICROS_PER_SECOND,
              electionTimeoutUs: seconds(1),
              commitLatencyUs,
              ...(s.checkpoint === undefined
                ? {}
                : { checkpointIntervalUs: s.checkpoint.intervalUs, loopWorkUs: commitLatencyUs }),
              spreadDelayUs: d.maxSpreadUs,
              retryIntervalUs: seconds(7),
              failedAttempts: d.failedAttempts,
              leaderChanges: d.leaderChanges,
              fullTtlChanges: d.fullTtlChanges,
              gapUs: d.gapUs,
            });
            expect(d.driftUs!).toBeLessThanOrEqual(bound);
            // Below zero only through an old leader's revoke (C4) or a stale checkpoint (A7): docs/drift.md.
            if (!d.staleCheckpoint && !d.staleRevoke) expect(d.driftUs!).toBeGreaterThanOrEqual(0);
            if (d.leaderChanges > 0) withChanges++;
          }
          runs++;
        }),
        fcParams(Number(process.env.DRIFT_RUNS ?? 60)),
      );
      // The schedules must actually move leases through leader changes, or the bound is tested on nothing.
      expect(withChanges).toBeGreaterThan(runs / 4);
    },
  );
});
