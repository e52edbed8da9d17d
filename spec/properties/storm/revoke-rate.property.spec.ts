// Leases expiring together on the real cluster: the revoke rate limit and the drain time (bug catalogue B1, B2).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MICROS_PER_SECOND, ms, seconds } from '../../../src/clock/time.js';
import { maxInWindow, primaryRevokes, runStorm } from '../../../src/properties/storm/index.js';
import { fcParams } from '../../support/fc.js';
import { checkStableDrain } from './support.js';

describe('revoke storm on a stable leader', () => {
  it('offers and revokes stay within 1000 per sliding second, and each lease drains within drainBound', () => {
    fc.assert(
      fc.property(
        fc.record({
          leases: fc.integer({ min: 600, max: 3000 }),
          ttl: fc.integer({ min: 3, max: 8 }),
          spanUs: fc.constantFrom(0, ms(300), seconds(2)),
          latencyUs: fc.constantFrom(ms(1), ms(3)),
        }),
        (s) => {
          const run = runStorm({
            leases: s.leases,
            ttl: s.ttl,
            grantSpanUs: s.spanUs,
            cluster: { latencyUs: s.latencyUs },
            untilUs: seconds(60),
          });
          checkStableDrain(run, s.leases, 2 * s.latencyUs);
        },
      ),
      fcParams(Number(process.env.STORM_RUNS ?? 5)),
    );
  });

  it(
    'the limit is on offers, not applies: after the leader is ' +
      'cut off for 0.8 s, 1500 revokes apply within one second',
    () => {
      // Offers go on at 500 per tick while nothing commits; on heal every batch's 16 in-flight proposals
      // commit and the batches drain together. No leader change (0.8 s < the election timeout).
      const run = runStorm({
        leases: 3000,
        ttl: 5,
        untilUs: seconds(60),
        actions: [
          { at: seconds(6.6), run: (c) => c.partition([['n1'], ['n2', 'n3']]) },
          { at: seconds(7.4), run: (c) => c.heal() },
        ],
      });
      expect(run.revoked).toBe(3000);
      expect(run.events.filter((e) => e.kind === 'lessor-promote')).toHaveLength(1);
      expect(
        maxInWindow(
          run.events.filter((e) => e.kind === 'lease-expired').map((e) => e.t),
          MICROS_PER_SECOND,
        ).count,
      ).toBe(1000);
      expect(maxInWindow([...primaryRevokes(run.events).values()], MICROS_PER_SECOND).count).toBe(1500);
    },
  );
});
