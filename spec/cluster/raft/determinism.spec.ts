import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

/** A run with jitter, loss and faults, so every random draw matters to the outcome. */
function scripted(seed: number): RaftCluster {
  const c = new RaftCluster({ members: 5, seed, net: { jitterUs: ms(3), lossProbability: 0.05 } });
  c.runUntil(() => c.leader() !== undefined, ms(5000));
  for (let i = 0; i < 20; i++) {
    c.run(ms(150));
    c.leader()?.propose(`v${i}`);
    if (i === 5) c.crash(c.leader()?.id ?? 'n1');
    if (i === 10)
      c.net.partition([
        ['n1', 'n2'],
        ['n3', 'n4', 'n5'],
      ]);
    if (i === 15) c.net.heal();
  }
  c.run(ms(5000));
  return c;
}

describe('determinism', () => {
  it('the same seed gives the same trace, line for line', () => {
    const a = scripted(11);
    const b = scripted(11);
    expect(a.trace.length).toBeGreaterThan(20);
    expect(a.trace.lines()).toEqual(b.trace.lines());
    expect(a.trace.hash()).toBe(b.trace.hash());
    expect(a.sched.eventsExecuted).toBe(b.sched.eventsExecuted);
  });

  it('a different seed changes when elections happen', () => {
    const firstElection = (seed: number) => {
      const c = new RaftCluster({ seed });
      return c.runUntil(() => c.leader() !== undefined, ms(5000));
    };
    const times = new Set([1, 2, 3, 4, 5, 6].map(firstElection));
    expect(times.size).toBeGreaterThan(1);
    expect(scripted(12).trace.lines()).not.toEqual(scripted(11).trace.lines());
  });
});
