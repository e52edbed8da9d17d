// The bound is tight: a directed search over leader-transfer timings finds runs within 10% of it.
import { describe, expect, it } from 'vitest';
import { formatSeconds, seconds } from '../../../src/clock/time.js';
import { driftBound, searchTightRun } from '../../../src/properties/drift/index.js';

describe('driftBound is reached', () => {
  it('closed form: TTL + ET + Lag + G per leader change without checkpointing, unbounded in k', () => {
    const p = { ttlUs: seconds(2), electionTimeoutUs: seconds(1), commitLatencyUs: 2000, gapUs: 5000 };
    // Lag = 0.5 s + 2 ms; per change 2 + 1 + 0.502 + 0.005 s; plus Lag + G at the end.
    expect(driftBound({ ...p, leaderChanges: 0 })).toBe(507_000);
    expect(driftBound({ ...p, leaderChanges: 5 })).toBe(5 * 3_507_000 + 507_000);
    // With checkpointing each change adds at most CPI + C + 1 s instead of the TTL.
    expect(
      driftBound({
        ...p,
        ttlUs: seconds(60),
        checkpointIntervalUs: seconds(4.501),
        loopWorkUs: 2000,
        leaderChanges: 4,
        fullTtlChanges: 0,
      }),
    ).toBe(4 * (1_000_000 + 5000 + 504_000 + 4_501_000 + 2000 + 1_000_000) + 504_000 + 5000);
  });

  it('finds runs within 10% of the bound, with and without checkpointing', () => {
    const cases = [
      { name: 'no checkpointing, TTL 2 s, 5 transfers', ttl: 2, leaderChanges: 5 },
      {
        name: 'checkpointing every 4.501 s, TTL 60 s, 4 transfers',
        ttl: 60,
        leaderChanges: 4,
        cluster: { leaseCheckpoint: true, checkpointIntervalUs: seconds(4.501) },
      },
    ];
    const lines: string[] = [];
    for (const c of cases) {
      const r = searchTightRun(c);
      expect(r.drift.leaderChanges).toBe(c.leaderChanges);
      expect(r.drift.driftUs!).toBeLessThanOrEqual(r.boundUs);
      expect(r.ratio).toBeGreaterThan(0.9);
      lines.push(
        `${c.name}: drift ${formatSeconds(r.drift.driftUs!)} s, bound ` +
          `${formatSeconds(r.boundUs)} s, ratio ${r.ratio.toFixed(4)} (${r.runs} runs)`,
      );
    }
    console.log(
      `driftBound = k·(ET + Δ + G + Lag) + k_T·TTL + (k − k_T)·min(TTL, ` +
        `CPI + C + 1 s) + Lag + G + f·RT, Lag = P + W + C\n${lines.join('\n')}`,
    );
  });
});
