// Lanes extracted from the leader-change and fencing fixtures: what the timeline will draw, as data.
import { describe, expect, it } from 'vitest';
import { seconds } from '../../../src/clock/time.js';
import { extractTimeline } from '../../../src/report/render/index.js';
import type { LeaseLane, Timeline } from '../../../src/report/render/index.js';
import { FOREVER } from '../../../src/lessor/lease.js';
import { fieldsOf, type TraceEvent } from '../../../src/trace/trace.js';
import { runFixture, syntheticRun } from './support.js';

const lc = runFixture('leader-change.yaml');
const tl = extractTimeline(lc);

/** The first event matching, after `from`. */
function find(events: readonly TraceEvent[], pred: (e: TraceEvent) => boolean, from = -Infinity): TraceEvent {
  const e = events.find((x) => x.t >= from && pred(x));
  if (e === undefined) throw new Error('no such event in the trace');
  return e;
}

const member = (t: Timeline, name: string) => t.members.find((m) => m.name === name)!;
const lease = (t: Timeline, label: string): LeaseLane => t.leases.find((l) => l.label === label)!;
const client = (t: Timeline, name: string) => t.clients.find((c) => c.name === name)!;

describe('time range', () => {
  it('runs from the bootstrap before 0 to the scenario end', () => {
    expect(tl.startUs).toBe(lc.trace.events[0]!.t);
    expect(tl.startUs).toBeLessThan(0);
    expect(tl.endUs).toBe(seconds(22));
  });
});

describe('member lanes', () => {
  it('has one lane per member, in order', () => {
    expect(tl.members.map((m) => m.name)).toEqual(['n1', 'n2', 'n3']);
  });

  it('n1 leads from the bootstrap election until the transfer at 4 s, then follows', () => {
    const roles = member(tl, 'n1').roles;
    const leader = roles.find((s) => s.state === 'leader')!;
    const stepDown = find(
      lc.trace.events,
      (e) => e.member === 'n1' && e.kind === 'raft-role' && e.fields?.role === 'follower',
    );
    expect(leader.startUs).toBeLessThan(0);
    expect(leader.endUs).toBe(stepDown.t);
    expect(leader.endUs).toBeGreaterThanOrEqual(seconds(4));
    expect(leader.endUs).toBeLessThan(seconds(4.1));
    const next = roles[roles.indexOf(leader) + 1]!;
    expect(next).toMatchObject({ state: 'follower', startUs: leader.endUs });
    expect(leader.lines.some((l) => l.includes('n1 raft-role - role=leader term=1'))).toBe(true);
    expect(leader.lines.at(-1)).toContain('role=follower');
  });

  it('n1 is crashed from its crash at 12 s to its restart at 14 s, a follower after', () => {
    const roles = member(tl, 'n1').roles;
    const crashed = roles.find((s) => s.state === 'crashed')!;
    expect(crashed).toMatchObject({ startUs: seconds(12), endUs: seconds(14) });
    expect(roles.at(-1)).toMatchObject({ state: 'follower', endUs: tl.endUs });
  });

  it('spans tile each lane with no gaps or overlaps', () => {
    for (const m of tl.members) {
      expect(m.roles[0]!.startUs).toBe(tl.startUs);
      expect(m.roles.at(-1)!.endUs).toBe(tl.endUs);
      for (let i = 1; i < m.roles.length; i++) expect(m.roles[i]!.startUs).toBe(m.roles[i - 1]!.endUs);
    }
  });

  it('labels the term where each member takes the lead', () => {
    expect(member(tl, 'n1').terms.map((t) => t.term)).toEqual([1]);
    expect(member(tl, 'n2').terms.map((t) => t.term)).toEqual([2]);
    expect(member(tl, 'n3').terms.map((t) => t.term)).toEqual([4]);
    expect(member(tl, 'n3').roles.some((s) => s.state === 'candidate')).toBe(true);
  });

  it('puts lessor promote and demote on the member', () => {
    expect(member(tl, 'n2').lessor.map((m) => m.kind)).toEqual(['lessor-promote', 'lessor-demote']);
  });
});

describe('lease lanes', () => {
  it('has one lane per lease in grant order, labelled by the scenario', () => {
    expect(tl.leases.map((l) => l.label)).toEqual(['L1', 'L2', 'session of c2']);
    expect(lease(tl, 'L1').hex).toBe(lc.labels.id('L1')!.toString(16));
    expect(lease(tl, 'L1').ttlSeconds).toBe(6);
  });

  it('L2 (no keep-alive, TTL 3 s) is revoked within a run-loop pass of its expiry', () => {
    const l2 = lease(tl, 'L2');
    const revoke = find(lc.trace.events, (e) => e.kind === 'lease-revoke' && e.lease === l2.id);
    expect(revoke.member).toBe('n1');
    expect(l2.revokedUs).toBe(revoke.t);
    const expiry = l2.ttl[0]!.expiryUs!;
    expect(expiry).toBe(l2.grantedUs + seconds(3));
    expect(l2.revokedUs!).toBeGreaterThan(expiry);
    expect(l2.revokedUs! - expiry).toBeLessThan(seconds(0.6));
    expect(l2.ttl.at(-1)!.endUs).toBe(l2.revokedUs);
    expect(l2.marks.filter((m) => m.kind === 'lease-revoke').map((m) => m.line.split(' ')[1])).toEqual([
      'n1',
      'n2',
      'n3',
    ]);
    expect(l2.marks.find((m) => m.kind === 'lease-revoke')!.line).toContain('keys=/svc/b');
  });

  it("L1 follows the primary: n1's renewals, n2's promote, no primary after n2 steps down, n3's promote", () => {
    const l1 = lease(tl, 'L1');
    const byPrimary = l1.ttl.map((s) => s.primary ?? '-');
    expect(byPrimary[0]).toBe('n1');
    expect(byPrimary).toContain('n2');
    expect(byPrimary).toContain('-');
    expect(byPrimary.at(-1)).toBe('n3');
    const promoteN3 = find(lc.trace.events, (e) => e.member === 'n3' && e.kind === 'lessor-promote');
    const afterPromote = l1.ttl.find((s) => s.startUs === promoteN3.t)!;
    // Lease.refresh: promote time + extend (1 s) + TTL; the lease-expired line prints the same expiry.
    expect(afterPromote.expiryUs).toBe(promoteN3.t + seconds(1) + seconds(6));
    const expired = find(lc.trace.events, (e) => e.kind === 'lease-expired' && e.lease === l1.id);
    expect(fieldsOf(expired).expiry).toBe(afterPromote.expiryUs);
    const gap = l1.ttl.find((s) => s.expiryUs === undefined && s.startUs > seconds(5))!;
    expect(gap.endUs).toBe(promoteN3.t);
  });

  it('a promote uses the checkpointed remaining TTL when there is one (Lease.refresh)', () => {
    const id = 0x10n;
    const t = extractTimeline(
      syntheticRun(
        [
          { t: 0, member: 'n1', kind: 'lease-grant', lease: id, fields: { ttl: 10, expiry: seconds(10) } },
          { t: 1, member: 'n2', kind: 'lease-grant', lease: id, fields: { ttl: 10, expiry: FOREVER } },
          { t: seconds(6), member: 'n2', kind: 'lease-checkpoint', lease: id, fields: { remaining: 4 } },
          { t: seconds(7), member: 'n1', kind: 'member-crash' },
          { t: seconds(8), member: 'n2', kind: 'lessor-promote', fields: { extend: seconds(1), leases: 1, spread: 0 } },
        ],
        { labels: { L: id } },
      ),
    );
    expect(lease(t, 'L').ttl.map((s) => [s.startUs, s.expiryUs, s.primary])).toEqual([
      [0, seconds(10), 'n1'],
      [seconds(7), undefined, undefined],
      [seconds(8), seconds(8 + 1 + 4), 'n2'],
    ]);
  });

  it('TTL segments of a lease are contiguous from its grant to its revoke', () => {
    for (const l of tl.leases) {
      expect(l.ttl[0]!.startUs).toBe(l.grantedUs);
      expect(l.ttl.at(-1)!.endUs).toBe(l.revokedUs ?? tl.endUs);
      for (let i = 1; i < l.ttl.length; i++) expect(l.ttl[i]!.startUs).toBe(l.ttl[i - 1]!.endUs);
    }
  });
});

describe('client lanes', () => {
  it('c1: paused 10 s → 18 s; its keep-alive for L1 alive until closed at 18 s, then lost', () => {
    const c1 = client(tl, 'c1');
    expect(c1.paused).toEqual([expect.objectContaining({ startUs: seconds(10), endUs: seconds(18) })]);
    const ka = c1.keepAlives.find((k) => k.title === 'L1')!;
    expect(ka.spans.map((s) => [s.state, s.endUs])).toEqual([
      ['alive', seconds(18)],
      ['lost', tl.endUs],
    ]);
    expect(ka.marks.filter((m) => m.kind === 'client-keepalive-recv').length).toBeGreaterThan(2);
  });

  it('a served program: paused from each SIGSTOP to its SIGCONT, or to the kill that ends it stopped', () => {
    const signal = (t: number, name: string): TraceEvent => ({
      t: seconds(t),
      member: 'holder-1',
      kind: 'app-signal',
      fields: { signal: name },
    });
    const t = extractTimeline(
      syntheticRun([
        { t: 0, member: 'holder-1', kind: 'app-start', fields: { command: './holder' } },
        signal(2, 'SIGSTOP'),
        signal(4, 'SIGCONT'),
        signal(5, 'SIGSTOP'),
        signal(7, 'SIGKILL'),
        { t: seconds(7), member: 'holder-1', kind: 'app-exit', fields: { signal: 'SIGKILL', by: 'harness' } },
      ]),
    );
    const lane = client(t, 'holder-1');
    expect(lane.paused.map((p) => [p.startUs, p.endUs])).toEqual([
      [seconds(2), seconds(4)],
      [seconds(5), seconds(7)],
    ]);
    // The start, the kill and the exit stay marks of their own; the stops and the resume are the hatch's.
    expect(lane.ticks.map((m) => m.kind)).toEqual(['app-start', 'app-signal', 'app-exit']);
  });

  it('c2: holds /locks/x from acquisition to the end, and its fenced write is accepted', () => {
    const c2 = client(tl, 'c2');
    const acquired = find(lc.trace.events, (e) => e.member === 'c2' && e.kind === 'client-lock-acquired');
    expect(c2.locks).toHaveLength(1);
    expect(c2.locks[0]!.spans).toEqual([
      expect.objectContaining({ state: 'held', startUs: acquired.t, endUs: tl.endUs }),
    ]);
    expect(c2.writes.map((w) => w.variant)).toEqual(['accepted']);
  });

  it('fencing: c2 holds the lock past its session lease revoke; its late write is rejected', () => {
    const fe = runFixture('fencing.yaml');
    const t = extractTimeline(fe);
    const c2 = client(t, 'c2');
    const session = lease(t, 'session of c2');
    expect(c2.locks[0]!.spans.map((s) => s.state)).toEqual(['held', 'held-lease-gone']);
    expect(c2.locks[0]!.spans[1]!.startUs).toBe(session.revokedUs);
    expect(c2.locks[0]!.spans[1]!.lines.some((l) => l.includes('lease-revoke'))).toBe(true);
    expect(c2.writes.map((w) => w.variant)).toEqual(['accepted', 'rejected']);
    expect(client(t, 'c3').writes.map((w) => w.variant)).toEqual(['accepted']);
  });
});

describe('markers and assertions', () => {
  it('marks leader changes, the partition and heal, the crash, restart and clock jump, and the failed check', () => {
    const kinds = tl.markers.map((m) => `${m.kind}@${m.t}`);
    expect(kinds).toContain(`partition@${seconds(7)}`);
    expect(kinds).toContain(`heal@${seconds(9)}`);
    expect(kinds).toContain(`crash@${seconds(12)}`);
    expect(kinds).toContain(`restart@${seconds(14)}`);
    expect(kinds).toContain(`clock@${seconds(11)}`);
    expect(kinds).toContain(`fail@${seconds(19)}`);
    expect(tl.markers.filter((m) => m.kind === 'leader').map((m) => m.label)).toEqual([
      'n1 leads (term 1)',
      'n2 leads (term 2)',
      'n3 leads (term 4)',
    ]);
    expect(tl.partitions).toEqual([expect.objectContaining({ startUs: seconds(7), endUs: seconds(9) })]);
  });

  it('has a PASS/FAIL mark per assertion with its trace line', () => {
    expect(tl.assertions.map((a) => [a.t, a.pass])).toEqual([
      [seconds(6), true],
      [seconds(6), true],
      [seconds(19), false],
      [seconds(20), true],
    ]);
    expect(tl.assertions[2]!.traceLine).toMatch(/^19\.000000 sim expect-fail - line=43 /);
  });
});

describe('nothing in the trace is lost', () => {
  it('every trace line is shown by some mark, span or marker', () => {
    for (const r of [lc, runFixture('fencing.yaml')]) {
      const t = extractTimeline(r);
      const shown = new Set<string>();
      const add = (ls: readonly string[]): void =>
        ls.forEach((l) => {
          shown.add(l);
        });
      for (const m of t.members) {
        m.roles.forEach((s) => {
          add(s.lines);
        });
        add(m.lessor.map((x) => x.line));
        add(m.ticks.map((x) => x.line));
      }
      for (const l of t.leases) {
        l.ttl.forEach((s) => {
          add(s.lines);
        });
        add(l.marks.map((x) => x.line));
      }
      for (const c of t.clients) {
        c.paused.forEach((s) => {
          add(s.lines);
        });
        c.keepAlives.forEach((k) => {
          k.spans.forEach((s) => {
            add(s.lines);
          });
          add(k.marks.map((x) => x.line));
        });
        c.locks.forEach((k) => {
          k.spans.forEach((s) => {
            add(s.lines);
          });
          add(k.marks.map((x) => x.line));
        });
        add(c.writes.map((x) => x.line));
        add(c.ticks.map((x) => x.line));
      }
      add(t.harness.ticks.map((x) => x.line));
      add(t.ctl.ticks.map((x) => x.line));
      t.markers.forEach((m) => {
        add(m.lines);
      });
      t.partitions.forEach((p) => {
        add(p.lines);
      });
      t.assertions.forEach((a) => {
        a.traceLine !== undefined && shown.add(a.traceLine);
      });
      expect(r.trace.lines().filter((l) => !shown.has(l))).toEqual([]);
    }
  });
});
