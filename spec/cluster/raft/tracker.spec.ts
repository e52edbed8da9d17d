import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProgressTracker } from '../../../src/cluster/raft/tracker.js';
import { fcParams } from '../../support/fc.js';

describe('ProgressTracker.committed', () => {
  it('is the highest index a quorum holds, the leader counted, for any matches and cluster size', () => {
    const matches = fc.array(fc.nat({ max: 20 }), { minLength: 0, maxLength: 6 });
    fc.assert(
      fc.property(fc.nat({ max: 20 }), matches, (self, peerMatches) => {
        const t = new ProgressTracker(
          peerMatches.map((_, i) => `p${i}`),
          0,
        );
        t.peers.forEach((p, i) => {
          p.match = peerMatches[i]!;
        });
        const all = [self, ...peerMatches];
        // The answer by definition: the largest index at least a quorum of members hold.
        const held = (n: number): number => all.filter((m) => m >= n).length;
        const expected = Math.max(...all.filter((n) => held(n) >= t.quorum));
        expect(t.committed(self)).toBe(expected);
        // Asking twice gives the same answer: the scratch array keeps nothing between calls.
        expect(t.committed(self)).toBe(expected);
      }),
      fcParams(300),
    );
  });
});
