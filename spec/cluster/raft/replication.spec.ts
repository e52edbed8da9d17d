import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

function elected(opts: ConstructorParameters<typeof RaftCluster>[0] = {}): RaftCluster {
  const c = new RaftCluster(opts);
  c.node('n1').campaign();
  c.run(ms(50));
  expect(c.leader()?.id).toBe('n1');
  return c;
}

describe('log replication', () => {
  it('applies proposals on every member in the order the leader took them', () => {
    const c = elected({ members: 5, net: { jitterUs: ms(2) } });
    const n1 = c.node('n1');
    for (let i = 0; i < 50; i++) {
      c.sched.at(c.now + i * 700, () => expect(n1.propose(`v${i}`)).toEqual({ index: i + 2, term: 1 }));
    }
    c.run(ms(500));
    const expected = [null, ...Array.from({ length: 50 }, (_, i) => `v${i}`)];
    for (const id of c.ids) {
      expect(c.appliedBy(id).map((a) => a.entry.data)).toEqual(expected);
      expect(c.node(id).commitIndex).toBe(51);
      expect(c.node(id).appliedIndex).toBe(51);
    }
    c.checkLogMatching();
  });

  it('rejects proposals anywhere but on the leader', () => {
    const c = elected();
    expect(c.node('n2').propose('x')).toEqual({ error: 'not-leader' });
    expect(c.node('n1').propose('x')).toEqual({ index: 2, term: 1 });
  });

  for (const [fsyncUs, leaderUs, followerUs] of [
    [0, ms(2), ms(3)],
    [ms(2), ms(4), ms(5)],
  ] as const) {
    it(`commit latency with 1 ms links and fsync ${fsyncUs / 1000} ms is 2×latency + fsync`, () => {
      const c = elected({ raft: { fsyncUs } });
      const t0 = c.now;
      const { index } = c.node('n1').propose('x') as { index: number };
      c.run(ms(20));
      // Leader: MsgApp out (1 ms), follower fsync, MsgAppResp back (1 ms); its own fsync runs meanwhile.
      expect(c.appliedBy('n1')[index - 1]!.t - t0).toBe(leaderUs);
      // Followers learn the new commit index from the next MsgApp, one more latency later.
      expect(c.appliedBy('n2')[index - 1]!.t - t0).toBe(followerUs);
      expect(c.appliedBy('n3')[index - 1]!.t - t0).toBe(followerUs);
    });
  }

  it('entries reach storage only after the fsync, and a follower acks only what it has made durable', () => {
    const c = elected({ raft: { fsyncUs: ms(5) } });
    const before = c.storage('n2').lastIndex();
    c.node('n1').propose('x');
    c.run(ms(1) + ms(5) - 1);
    // The MsgApp arrived 1 ms after the proposal; its write completes 5 ms later.
    expect(c.storage('n2').lastIndex()).toBe(before);
    expect(c.node('n1').commitIndex).toBe(before);
    c.run(1);
    expect(c.storage('n2').lastIndex()).toBe(before + 1);
    c.run(ms(1));
    expect(c.node('n1').commitIndex).toBe(before + 1);
  });

  it('a leader counts itself toward a commit only once its own fsync is done', () => {
    const c = new RaftCluster({ members: 1, raft: { fsyncUs: ms(3) } });
    c.node('n1').campaign();
    c.run(ms(10));
    const t0 = c.now;
    const { index } = c.node('n1').propose('x') as { index: number };
    c.run(ms(10));
    expect(c.appliedBy('n1')[index - 1]!.t - t0).toBe(ms(3));
  });

  it('a follower cut off for a while catches up through probing and fast backtracking', () => {
    const c = elected();
    c.net.partition([['n1', 'n2'], ['n3']]);
    for (let i = 0; i < 20; i++) c.node('n1').propose(`v${i}`);
    c.run(ms(100));
    expect(c.node('n3').log.lastIndex()).toBe(1);
    expect(c.node('n1').commitIndex).toBe(21);
    c.net.heal();
    c.run(ms(300));
    expect(c.appliedBy('n3').map((a) => a.entry.data)).toEqual(c.appliedBy('n1').map((a) => a.entry.data));
    c.checkLogMatching();
  });

  it('a follower with a divergent uncommitted tail has it replaced by the leader', () => {
    const c = elected();
    // n1 takes entries only it will ever hold, then is cut off and loses leadership.
    c.net.partition([['n1'], ['n2', 'n3']]);
    for (let i = 0; i < 5; i++) c.node('n1').propose(`lost${i}`);
    c.runUntil(() => c.leader()?.id !== 'n1' && c.leader() !== undefined, ms(5000));
    const newLeader = c.leader()!;
    newLeader.propose('kept');
    c.run(ms(10));
    c.net.heal();
    c.run(ms(3000));
    const data = c.appliedBy('n1').map((a) => a.entry.data);
    expect(data).toContain('kept');
    expect(data.filter((d) => typeof d === 'string' && d.startsWith('lost'))).toEqual([]);
    expect(c.node('n1').log.lastIndex()).toBe(c.node(newLeader.id).log.lastIndex());
    c.checkLogMatching();
  });
});
