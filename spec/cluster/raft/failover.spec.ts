import { describe, expect, it } from 'vitest';
import { formatSeconds, ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

const ET = ms(1000);

function elected(seed: number): RaftCluster {
  const c = new RaftCluster({ seed });
  c.node('n1').campaign();
  c.run(ms(50));
  return c;
}

describe('leader failure', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`a crashed leader is replaced within [ET, 3ET] and nothing committed is lost (seed ${seed})`, () => {
      const c = elected(seed);
      for (let i = 0; i < 10; i++) c.node('n1').propose(`v${i}`);
      // Crash just as the followers have taken a heartbeat (leader ticks at 5.0 s, links are 1 ms).
      c.run(ms(5001) - c.now);
      c.crash('n1');
      const crashedAt = c.now;
      const at = c.runUntil(() => c.leader() !== undefined, 5 * ET)!;
      expect(at - crashedAt).toBeGreaterThanOrEqual(ET);
      expect(at - crashedAt).toBeLessThanOrEqual(3 * ET);

      const lead = c.leader()!;
      expect(lead.term).toBe(2);
      c.run(ms(50));
      const firstOwn = c.appliedBy(lead.id).find((a) => a.entry.term === lead.term)!;
      expect(firstOwn.entry).toEqual({ index: 12, term: 2, data: null });
      const prefix = [null, ...Array.from({ length: 10 }, (_, i) => `v${i}`), null];
      expect(c.appliedBy(lead.id).map((a) => a.entry.data)).toEqual(prefix);

      c.restart('n1');
      c.run(ms(500));
      expect(c.appliedBy('n1').map((a) => a.entry.data)).toEqual(prefix);
      expect(c.node('n1').leader).toBe(lead.id);
      c.checkLogMatching();
    });
  }

  it('a leader cut off in a minority steps down by CheckQuorum and commits nothing meanwhile', () => {
    const c = elected(1);
    const partitionedAt = ms(2050);
    c.run(partitionedAt - c.now);
    c.net.partition([['n1'], ['n2', 'n3']]);
    const commitBefore = c.node('n1').commitIndex;
    const r = c.node('n1').propose('doomed');
    expect(r).toEqual({ index: commitBefore + 1, term: 1 });

    const downAt = c.runUntil(() => c.node('n1').role !== 'leader', 3 * ET)!;
    // CheckQuorum runs every election timeout and counts what was heard since the previous check, so
    // a leader cut off just after a check notices at the second check: within two election timeouts.
    expect(downAt - partitionedAt).toBeGreaterThan(0);
    expect(downAt - partitionedAt).toBeLessThanOrEqual(2 * ET);
    expect(c.node('n1').commitIndex).toBe(commitBefore);
    expect(c.trace.lines()).toContain(`${formatSeconds(downAt)} n1 raft-step-down - reason=check-quorum`);
    expect(c.node('n1').term).toBe(1);

    c.run(3 * ET);
    const majorityLeader = c.leader()!;
    expect(majorityLeader.id).not.toBe('n1');
    majorityLeader.propose('kept');
    c.run(ms(100));
    c.net.heal();
    c.run(2 * ET);
    for (const id of c.ids) {
      const data = c.appliedBy(id).map((a) => a.entry.data);
      expect(data).not.toContain('doomed');
      expect(data).toContain('kept');
    }
  });

  it('without CheckQuorum the cut-off leader stays leader (so the test above measures CheckQuorum)', () => {
    const c = new RaftCluster({ raft: { checkQuorum: false } });
    c.node('n1').campaign();
    c.run(ms(50));
    c.net.partition([['n1'], ['n2', 'n3']]);
    c.run(5 * ET);
    expect(c.node('n1').role).toBe('leader');
  });

  it(
    'a leader stopped (SIGSTOP) past an election timeout is ' +
      'replaced, and on resume steps down for the higher term',
    () => {
      const c = elected(1);
      c.node('n1').propose('before');
      c.run(ms(100));
      c.proc('n1').pause();
      const pausedAt = c.now;
      const at = c.runUntil(() => c.leader() !== undefined && c.leader()!.id !== 'n1', 4 * ET)!;
      expect(at - pausedAt).toBeGreaterThanOrEqual(ET - ms(100));
      const newLeader = c.leader()!;
      newLeader.propose('during');
      c.run(3 * ET - (c.now - pausedAt));
      expect(c.node('n1').role).toBe('leader');
      expect(c.node('n1').term).toBe(1);

      c.proc('n1').resume();
      c.run(ms(20));
      expect(c.node('n1').role).toBe('follower');
      expect(c.node('n1').term).toBe(newLeader.term);
      expect(c.node('n1').leader).toBe(newLeader.id);
      expect(c.trace.lines().filter((l) => l.includes('n1 raft-step-down'))).toEqual([
        `${formatSeconds(pausedAt + 3 * ET)} n1 raft-step-down - reason=higher-term`,
      ]);
      c.run(ms(200));
      expect(c.appliedBy('n1').map((a) => a.entry.data)).toEqual(c.appliedBy(newLeader.id).map((a) => a.entry.data));
      expect(c.appliedBy('n1').map((a) => a.entry.data)).toContain('during');
    },
  );
});
