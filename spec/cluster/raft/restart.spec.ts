import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { Message } from '../../../src/cluster/raft/index.js';
import { RaftCluster } from './harness.js';

const ET = ms(1000);

function elected(fsyncUs = 0): RaftCluster {
  const c = new RaftCluster({ raft: { fsyncUs } });
  c.node('n1').campaign();
  c.run(ms(50));
  return c;
}

describe('crash and restart', () => {
  it('a restarted follower re-applies what it stored as committed at once, then catches up from the leader', () => {
    const c = elected();
    for (let i = 0; i < 5; i++) c.node('n1').propose(`a${i}`);
    c.run(ms(300));
    c.crash('n2');
    for (let i = 0; i < 5; i++) c.node('n1').propose(`b${i}`);
    c.run(ms(500));
    const stored = c.storage('n2').commit;
    expect(stored).toBeGreaterThanOrEqual(2);

    c.restart('n2');
    expect(c.node('n2').term).toBe(1);
    expect(c.node('n2').role).toBe('follower');
    expect(c.node('n2').leader).toBeUndefined();
    c.run(0);
    // etcd's first Ready after a restart: everything up to the stored commit index, before any message.
    expect(c.appliedBy('n2').length).toBe(stored);
    c.run(ms(300));
    expect(c.appliedBy('n2').map((a) => a.entry.data)).toEqual(c.appliedBy('n1').map((a) => a.entry.data));
    expect(c.appliedBy('n2')).toHaveLength(11);
  });

  it('a member whose state machine survived (consistent index) applies only what is new', () => {
    const c = elected();
    for (let i = 0; i < 3; i++) c.node('n1').propose(`a${i}`);
    c.run(ms(300));
    c.crash('n3');
    c.node('n1').propose('b');
    c.run(ms(300));
    const before = c.appliedBy('n3').slice();
    c.restart('n3', true);
    c.run(ms(300));
    expect(c.appliedBy('n3').slice(0, before.length)).toEqual(before);
    expect(
      c
        .appliedBy('n3')
        .slice(before.length)
        .map((a) => a.entry.data),
    ).toEqual(['b']);
  });

  it('an entry committed with a member’s ack survives that member’s crash, and it alone can carry it on', () => {
    // n3 is cut off, so n1 and n2 commit alone; a follower that acked before its fsync finished would
    // lose the entries here, and n2 could not win against nobody holding them.
    const c = elected(ms(2));
    c.net.partition([['n1', 'n2'], ['n3']]);
    for (let i = 0; i < 3; i++) c.node('n1').propose(`v${i}`);
    c.runUntil(() => c.node('n1').commitIndex === 4, ET);
    c.crash('n2');
    c.crash('n1');
    expect(c.storage('n2').lastIndex()).toBe(4);
    c.restart('n2');
    c.net.heal();
    const at = c.runUntil(() => c.leader() !== undefined, 5 * ET);
    expect(at).toBeDefined();
    // n3's log is behind, so n2 refuses it a vote: only n2 can win.
    expect(c.leader()!.id).toBe('n2');
    c.run(ms(100));
    expect(c.appliedBy('n3').map((a) => a.entry.data)).toEqual([null, 'v0', 'v1', 'v2', null]);
  });

  describe('votes', () => {
    /** n1 is down; n3's process runs a stand-in that records what n2 sends it. */
    function withSpy(fsyncUs: number) {
      const c = new RaftCluster({ raft: { fsyncUs } });
      c.crash('n1');
      c.crash('n3');
      c.proc('n3').restart();
      const toN3: Message[] = [];
      c.transport.register({ id: 'n3', step: (m) => toN3.push(m) });
      const voteRequest = (from: string) => c.node('n2').step(Message.of({ type: 'MsgVote', from, to: 'n2', term: 1 }));
      return { c, toN3, voteRequest };
    }

    it('are never granted twice in a term, across a restart', () => {
      const { c, toN3, voteRequest } = withSpy(0);
      voteRequest('n1');
      c.run(ms(1));
      expect([c.storage('n2').term, c.storage('n2').vote]).toEqual([1, 'n1']);
      c.crash('n2');
      c.restart('n2');
      expect(c.node('n2').term).toBe(1);
      voteRequest('n3');
      c.run(ms(2));
      expect(toN3.map((m) => [m.type, m.term, m.reject])).toEqual([['MsgVoteResp', 1, true]]);
    });

    it('are made durable when given in the current term too, not only along with a new term', () => {
      const { c, toN3 } = withSpy(ms(2));
      // A stray answer from a later term moves n2 to term 1 with no vote and no leader.
      c.node('n2').step(Message.of({ type: 'MsgAppResp', from: 'n1', to: 'n2', term: 1 }));
      c.run(ms(5));
      expect([c.storage('n2').term, c.storage('n2').vote]).toEqual([1, undefined]);
      c.node('n2').step(Message.of({ type: 'MsgVote', from: 'n3', to: 'n2', term: 1 }));
      c.run(ms(2) + ms(1));
      expect(toN3.map((m) => [m.type, m.term, m.reject])).toEqual([['MsgVoteResp', 1, false]]);
      expect(c.storage('n2').vote).toBe('n3');
      c.crash('n2');
      c.restart('n2');
      c.node('n2').step(Message.of({ type: 'MsgVote', from: 'n1', to: 'n2', term: 1 }));
      expect(c.node('n2').term).toBe(1);
      c.run(ms(5));
      expect(c.storage('n2').vote).toBe('n3');
    });

    it('are sent only once durable, so a crash inside the fsync forgets the vote and the reply with it', () => {
      const { c, toN3, voteRequest } = withSpy(ms(5));
      voteRequest('n3');
      c.run(ms(4));
      expect(toN3).toEqual([]);
      expect(c.storage('n2').vote).toBeUndefined();
      c.crash('n2');
      c.restart('n2');
      c.run(ms(10));
      expect(toN3).toEqual([]);
      expect(c.node('n2').term).toBe(0);

      voteRequest('n3');
      c.run(ms(5) + ms(1));
      expect(c.storage('n2').vote).toBe('n3');
      expect(toN3.map((m) => [m.type, m.term, m.reject])).toEqual([['MsgVoteResp', 1, false]]);
    });
  });
});
