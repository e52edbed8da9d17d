import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

describe('performance', () => {
  it('simulates an idle hour of a 3-member cluster well under a second', () => {
    // A first, short run lets the JIT compile the hot paths, as it would early in any long simulation.
    const warm = new RaftCluster();
    warm.node('n1').campaign();
    warm.run(ms(60_000));
    const c = new RaftCluster();
    c.node('n1').campaign();
    const start = performance.now();
    c.run(ms(3_600_000));
    const wallMs = performance.now() - start;
    expect(c.node('n1').term).toBe(1);
    // 36 000 ticks per member, two heartbeats and two answers per leader tick.
    expect(c.sched.eventsExecuted).toBeGreaterThan(3 * 36_000 + 4 * 36_000);
    expect(wallMs).toBeLessThan(1000);
  });
});
