// Leases piled up by a leader change: Promote's spreading (docs/lessor.md §3.8, docs/bugs.md B1 and K19),
// then the drain.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seconds } from '../../../src/clock/time.js';
import { promoteRecords, runStorm, spreadReport } from '../../../src/properties/storm/index.js';
import { fcParams } from '../../support/fc.js';
import { checkStableDrain } from './support.js';

const T = 750;

describe('Promote spreading after a leader change', () => {
  it('pushes leases as docs/lessor.md §3.8 says, at most 750 per second per spreading window, never earlier', () => {
    fc.assert(
      fc.property(
        fc.record({
          leases: fc.integer({ min: 1000, max: 4000 }),
          ttls: fc.array(fc.integer({ min: 10, max: 16 }), { minLength: 1, maxLength: 3 }),
          spanUs: fc.integer({ min: seconds(0.5), max: seconds(6) }),
        }),
        (s) => {
          const run = runStorm({
            leases: s.leases,
            ttl: (i) => s.ttls[i % s.ttls.length]!,
            grantSpanUs: s.spanUs,
            transferAtUs: seconds(1) + s.spanUs + seconds(1),
            untilUs: seconds(90),
          });
          const promotes = promoteRecords(run.events).filter((p) => p.leases.length > 0);
          expect(promotes).toHaveLength(1);
          const r = spreadReport(promotes[0]!, 1000);
          expect(r.mismatches).toEqual([]);
          expect(r.movedEarlier).toBe(0);
          expect(r.maxPushedPerWindowSecond).toBeLessThanOrEqual(T);
          // The exact per-second statement: pushed leases in a second ≤ 750 per spreading window meeting it.
          expect(r.maxPushed.count).toBeLessThanOrEqual(T * r.maxPushed.overlapping);
          if (s.ttls.every((t) => t === s.ttls[0])) {
            // One TTL: one window, so the catalogue's "≤ 750 beyond those already due" holds.
            expect(r.maxPushed.overlapping).toBeLessThanOrEqual(1);
            expect(r.maxDue.count - r.maxDue.natural).toBeLessThanOrEqual(T);
          }
          checkStableDrain(run, s.leases, 2000);
        },
      ),
      fcParams(Number(process.env.STORM_RUNS ?? 4)),
    );
  });

  it('K-19\'s "≤ 750 beyond those already due" fails when a new window starts inside pushed seconds', () => {
    // 4000 leases of TTL 10 and 2000 of TTL 13: the first window pushes TTL-10 leases out to +5.3 s; one
    // TTL-13 lease joins it and drops nextWindow to base + its delay, so the next TTL-13 lease opens a
    // second window whose pushed leases land in the same seconds as the first's.
    const run = runStorm({
      leases: 6000,
      ttl: (i) => (i < 4000 ? 10 : 13),
      transferAtUs: seconds(3),
      untilUs: seconds(60),
    });
    const r = spreadReport(promoteRecords(run.events).find((p) => p.leases.length > 0)!, 1000);
    expect(r.mismatches).toEqual([]);
    expect(r.maxPushedPerWindowSecond).toBe(T);
    expect(r.maxPushed).toEqual({ count: 2 * T, overlapping: 2 });
    // The revoke rate limit still holds: the run loop offers at most 500 per tick whatever is due.
    checkStableDrain(run, 6000, 2000);
  });
});
