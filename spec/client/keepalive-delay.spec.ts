// nextKeepAliveDelay in doubles against Go's int64 arithmetic restated with bigints, over every TTL range.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextKeepAliveDelay } from '../../src/client/index.js';
import { MaxLeaseTTL } from '../../src/lessor/config.js';
import { fcParams } from '../support/fc.js';

const goDelay = (ttl: number): number => Number((BigInt(ttl) * 1_000_000_000n) / 3n / 1_000n);

describe('nextKeepAliveDelay', () => {
  it('equals (TTL × 1 s) / 3 in int64 nanoseconds, floored to µs, for every TTL up to MaxLeaseTTL', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: MaxLeaseTTL })), (ttl) => {
        expect(nextKeepAliveDelay(ttl)).toBe(goDelay(ttl));
      }),
      fcParams(2000),
    );
    for (const ttl of [MaxLeaseTTL, MaxLeaseTTL - 1, MaxLeaseTTL - 2, 9_007_199_254, 9_007_199_255])
      expect(nextKeepAliveDelay(ttl)).toBe(goDelay(ttl));
  });
});
