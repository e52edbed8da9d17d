// The largest storm CI runs: 100,000 leases expiring together on the real cluster (B2's scale).
import { describe, expect, it } from 'vitest';
import { formatSeconds, seconds } from '../../../src/clock/time.js';
import { formatRateCurve, revokeRateCurve, runStorm } from '../../../src/properties/storm/index.js';
import { checkStableDrain } from './support.js';

describe('100,000 leases expiring together', () => {
  it('drain at 1000/s: every sliding second within the rate, every lease within drainBound', () => {
    const run = runStorm({ leases: 100_000, ttl: 5, untilUs: seconds(200) });
    const f = checkStableDrain(run, 100_000, 2000);
    // 200 iterations of 500: the last batch goes out 99.5 s after the first, then drains in 32 rounds.
    expect(f.drainUs).toBe(seconds(99.5) + 32 * 2000 + 498_000);
    console.log(
      `100k storm: drain ${formatSeconds(f.drainUs)} s, peak ${f.peakPerSecond}/s, worst lag ` +
        `${formatSeconds(f.worstLag)} s\n${formatRateCurve(revokeRateCurve(run.events, seconds(1)), 6)}`,
    );
  });
});
