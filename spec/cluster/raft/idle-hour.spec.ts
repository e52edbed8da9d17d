// An idle hour of a 3-member cluster: one election, then only ticks and heartbeats. Its speed is measured
// by the idle-day benchmark (`BENCH=idle-day npm run bench`), not here.
import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

describe('an idle hour', () => {
  it('keeps the first leader and term, with every tick and heartbeat run', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    c.run(ms(3_600_000));
    expect(c.node('n1').term).toBe(1);
    for (const n of ['n2', 'n3']) expect(c.node(n).term).toBe(1);
    // 36 000 ticks per member, two heartbeats and two answers per leader tick.
    expect(c.sched.eventsExecuted).toBeGreaterThan(3 * 36_000 + 4 * 36_000);
  });
});
