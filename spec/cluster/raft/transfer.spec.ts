import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

const ET = ms(1000);

function elected(): RaftCluster {
  const c = new RaftCluster();
  c.node('n1').campaign();
  c.run(ms(50));
  return c;
}

describe('leadership transfer', () => {
  it('makes the target leader within a few round trips, ignoring the followers’ leader lease', () => {
    const c = elected();
    const t0 = c.now;
    expect(c.node('n1').transferLeadership('n3')).toBe(true);
    const at = c.runUntil(() => c.leader()?.id === 'n3', ET)!;
    // TimeoutNow (1 ms), vote request (1 ms), vote (1 ms).
    expect(at - t0).toBe(ms(3));
    c.run(ms(20));
    for (const id of c.ids) expect(c.node(id).leader).toBe('n3');
    expect(c.node('n3').term).toBe(2);
    const lines = c.trace.lines();
    expect(lines).toContain('0.050000 n1 raft-transfer - to=n3');
    expect(lines).toContain('0.052000 n1 raft-step-down - reason=transfer');
    expect(c.appliedBy('n3').map((a) => a.entry)).toContainEqual({ index: 2, term: 2, data: null });
  });

  it('catches a lagging target up before handing over, and refuses proposals meanwhile', () => {
    const c = elected();
    c.net.setLinkLatency('n1', 'n3', ms(20));
    for (let i = 0; i < 5; i++) c.node('n1').propose(`v${i}`);
    c.run(ms(5));
    const t0 = c.now;
    c.node('n1').transferLeadership('n3');
    expect(c.node('n1').transferee).toBe('n3');
    expect(c.node('n1').propose('late')).toEqual({ error: 'transferring' });
    const at = c.runUntil(() => c.leader()?.id === 'n3', ET)!;
    // The entries reach n3 (sent 5 ms earlier), its ack returns (20 ms), TimeoutNow goes (20 ms), then
    // the vote round trip with n2.
    expect(at - t0).toBe(ms(15 + 20 + 20 + 2));
    c.run(ms(100));
    expect(c.appliedBy('n3').map((a) => a.entry.data)).toEqual([null, 'v0', 'v1', 'v2', 'v3', 'v4', null]);
  });

  it('gives up after an election timeout if the target never answers, and takes proposals again', () => {
    const c = elected();
    c.crash('n3');
    c.node('n1').transferLeadership('n3');
    c.run(ET - ms(100));
    expect(c.node('n1').propose('x')).toEqual({ error: 'transferring' });
    c.run(ms(100));
    expect(c.node('n1').transferee).toBeUndefined();
    expect(c.node('n1').role).toBe('leader');
    expect(c.node('n1').propose('x')).toMatchObject({ term: 1 });
  });

  it('is refused by a follower and for an unknown member', () => {
    const c = elected();
    expect(c.node('n2').transferLeadership('n3')).toBe(false);
    expect(c.node('n1').transferLeadership('n9')).toBe(false);
    expect(c.node('n1').transferLeadership('n1')).toBe(false);
  });
});
