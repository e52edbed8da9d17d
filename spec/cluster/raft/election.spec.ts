import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

describe('first election', () => {
  for (const members of [3, 5]) {
    it(`n1 campaigns at t=0 and leads ${members} members; its empty entry is applied everywhere`, () => {
      const c = new RaftCluster({ members });
      c.node('n1').campaign();
      const at = c.runUntil(() => c.leader() !== undefined, ms(2000));
      expect(c.leader()?.id).toBe('n1');
      // Vote request and answer: one round trip of 1 ms links.
      expect(at).toBe(ms(2));
      c.run(ms(10));
      for (const id of c.ids) {
        const n = c.node(id);
        expect(n.term).toBe(1);
        expect(n.leader).toBe('n1');
        expect(n.commitIndex).toBe(1);
        expect(c.appliedBy(id).map((a) => a.entry)).toEqual([{ index: 1, term: 1, data: null }]);
      }
      // The leader applies once a follower has acked (4 ms); followers learn the commit 1 ms later.
      expect(c.appliedBy('n1')[0]!.t).toBe(ms(4));
      expect(c.appliedBy('n2')[0]!.t).toBe(ms(5));
      expect(c.trace.lines().filter((l) => l.includes(' n1 raft-'))).toEqual([
        '0.000000 n1 raft-term - term=1',
        '0.000000 n1 raft-role - role=candidate term=1',
        '0.002000 n1 raft-role - role=leader term=1',
        '0.002000 n1 raft-leader - leader=n1 term=1',
      ]);
    });
  }

  it('without a campaign, some member times out after [ET, 2ET) and wins', () => {
    const c = new RaftCluster({ seed: 3 });
    const at = c.runUntil(() => c.leader() !== undefined, ms(5000));
    expect(at).toBeGreaterThanOrEqual(ms(1000));
    expect(at).toBeLessThan(ms(2000) + ms(10));
    c.run(ms(1000));
    const lead = c.leader()!;
    for (const id of c.ids) expect(c.node(id).leader).toBe(lead.id);
    expect(c.appliedBy('n1').map((a) => a.entry.data)).toEqual([null]);
  });

  it('soft state reports the leader to every member and the role changes to the candidate', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    c.run(ms(10));
    expect(c.softStates.get('n1')!.map(({ leader, role, term }) => ({ leader, role, term }))).toEqual([
      { leader: undefined, role: 'candidate', term: 1 },
      { leader: 'n1', role: 'leader', term: 1 },
    ]);
    expect(c.softStates.get('n2')!.map(({ leader, role }) => ({ leader, role }))).toEqual([
      { leader: 'n1', role: 'follower' },
    ]);
  });

  it('with PreVote the election still takes a single campaign() and one term', () => {
    const c = new RaftCluster({ raft: { preVote: true } });
    c.node('n1').campaign();
    const at = c.runUntil(() => c.leader() !== undefined, ms(2000));
    // Pre-vote round trip, then the vote round trip.
    expect(at).toBe(ms(4));
    expect(c.node('n1').term).toBe(1);
    expect(c.trace.lines()).toContain('0.000000 n1 raft-role - role=pre-candidate term=0');
  });

  it('heartbeats keep followers from campaigning: one term for a whole idle minute', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    c.run(ms(60_000));
    for (const id of c.ids) expect(c.node(id).term).toBe(1);
    expect(c.leader()?.id).toBe('n1');
  });
});
