import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

const ET = ms(1000);

type Answer = { ok: boolean; index: number; t: number };

function read(c: RaftCluster, id: string): Answer[] {
  const got: Answer[] = [];
  c.node(id).readIndex((ok, index) => got.push({ ok, index, t: c.now }));
  return got;
}

describe('readIndex', () => {
  it('confirms a stable leader with one heartbeat round and answers with the commit index', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    c.run(ms(50));
    c.node('n1').propose('x');
    c.run(ms(10));
    const t0 = c.now;
    const a = read(c, 'n1');
    const b = read(c, 'n1');
    expect(a).toEqual([]);
    c.run(ms(10));
    expect(a).toEqual([{ ok: true, index: 2, t: t0 + ms(2) }]);
    expect(b).toEqual([{ ok: true, index: 2, t: t0 + ms(2) }]);
  });

  it('fails on a follower and on a leader that has not committed an entry of its term yet', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    const early = c.runUntil(() => c.leader() !== undefined, ET);
    expect(early).toBe(ms(2));
    const a = read(c, 'n1');
    const f = read(c, 'n2');
    c.run(ms(1));
    expect(a).toEqual([{ ok: false, index: 0, t: ms(2) }]);
    expect(f).toEqual([{ ok: false, index: 0, t: ms(2) }]);
  });

  it('fails on a leader cut off from the majority, and never answers ok', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    c.run(ms(50));
    c.net.partition([['n1'], ['n2', 'n3']]);
    const t0 = c.now;
    const a = read(c, 'n1');
    c.run(3 * ET);
    expect(a).toHaveLength(1);
    expect(a[0]!.ok).toBe(false);
    // Unconfirmed for a whole election timeout, or leadership lost first: whichever comes sooner.
    expect(a[0]!.t - t0).toBeLessThanOrEqual(ET);
  });

  it('keeps retrying the confirmation on later heartbeats when acks are lost', () => {
    const c = new RaftCluster();
    c.node('n1').campaign();
    c.run(ms(50));
    c.net.partition([['n1'], ['n2', 'n3']]);
    const a = read(c, 'n1');
    c.run(ms(240));
    expect(a).toEqual([]);
    c.net.heal();
    c.run(ms(100));
    // The next heartbeat (at 0.3 s) carries the pending round; its acks arrive 2 ms later.
    expect(a).toEqual([{ ok: true, index: 1, t: ms(302) }]);
  });
});
