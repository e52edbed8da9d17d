// Cluster-level lease behaviour, each asserting numbers from the reference (docs/lessor.md §4, docs/bugs.md A1, B1).
import { describe, expect, it } from 'vitest';
import { MICROS_PER_SECOND, ms, seconds } from '../../../src/clock/time.js';
import { V3_4, V3_5 } from '../../../src/switches/profile.js';
import { leaseRenew } from '../../../src/cluster/server/lease-ops.js';
import { clusterHarness } from './harness.js';

describe('leader change', () => {
  it('without checkpointing resets a lease to its full TTL plus the election timeout (A1)', () => {
    const { c, grant, call } = clusterHarness();
    c.runUntil(seconds(1));
    const id = grant(10);
    c.runUntil(seconds(7)); // 4 s left on n1
    c.crash('n1');
    let promotedAt = 0;
    c.trace.subscribe((e) => {
      if (e.kind === 'lessor-promote') promotedAt = e.t;
    });
    c.runUntil(seconds(12));
    const leader = c.leader()!;
    expect(leader.name).not.toBe('n1');
    const l = leader.lessor.lookup(id)!;
    expect(l.expiry - promotedAt).toBe(seconds(10) + seconds(1));
    const ttl = call(leader.name, { op: 'LeaseTimeToLive', id, keys: false });
    expect(ttl).toMatchObject({ ttl: Math.trunc((l.expiry - c.now()) / MICROS_PER_SECOND) });
  });

  it('with checkpointing, a lease longer than the interval resumes from the checkpointed remaining TTL', () => {
    const { c, grant } = clusterHarness({ leaseCheckpoint: true, checkpointIntervalUs: seconds(10) });
    c.runUntil(seconds(1));
    const id = grant(30);
    const grantedAt = c.now();
    c.runUntil(grantedAt + seconds(15)); // checkpoint at +10 s (on the first tick after it) recorded ~20 s
    const checkpointed = c.server('n2')!.lessor.lookup(id)!.remainingTTL;
    expect(checkpointed).toBe(20);
    let promotedAt = 0;
    c.trace.subscribe((e) => {
      if (e.kind === 'lessor-promote') promotedAt = e.t;
    });
    c.transferLeader('n2');
    c.runUntil(c.now() + seconds(1));
    expect(c.leader()!.name).toBe('n2');
    const l = c.server('n2')!.lessor.lookup(id)!;
    expect(l.expiry - promotedAt).toBe(seconds(20) + seconds(1));
  });

  it('a new leader is not primary until it applies its own empty entry', () => {
    const { c } = clusterHarness();
    c.runUntil(seconds(1));
    const order: string[] = [];
    c.trace.subscribe((e) => {
      if (e.member === 'n3' && (e.kind === 'raft-leader' || e.kind === 'lessor-promote'))
        order.push(`${e.kind}@${e.t}`);
    });
    c.transferLeader('n3');
    c.runUntil(seconds(2));
    expect(order).toHaveLength(2);
    expect(order[0]).toMatch(/^raft-leader@/);
    expect(order[1]).toMatch(/^lessor-promote@/);
    const [leaderAt, promoteAt] = order.map((s) => Number(s.split('@')[1]));
    expect(promoteAt! - leaderAt!).toBeGreaterThanOrEqual(ms(2)); // one round trip to commit the empty entry
  });
});

describe('renew forwarding', () => {
  it('a renewal through a follower succeeds and returns the granted TTL', () => {
    const { c, grant } = clusterHarness();
    c.runUntil(seconds(1));
    const id = grant(10);
    c.runUntil(seconds(6));
    let ttl: number | undefined;
    const sentAt = c.now();
    leaseRenew(c.server('n3')!, id, (r) => (ttl = r.err === undefined ? r.ttl : -1));
    c.runUntil(sentAt + ms(10));
    expect(ttl).toBe(10);
    // One hop to the leader: its lessor moved the expiry to (arrival + 10 s).
    expect(c.server('n1')!.lessor.lookup(id)!.expiry).toBe(sentAt + ms(1) + seconds(10));
  });

  it.each([V3_4, V3_5])('fails with ErrNoLeader on a follower while there is no leader ($name)', (profile) => {
    const { c, grant } = clusterHarness({ profile });
    c.runUntil(seconds(1));
    const id = grant(60);
    c.crash('n1');
    c.crash('n2');
    const s = c.server('n3')!;
    let err: string | undefined;
    const start = c.now();
    c.runUntil(start + seconds(3)); // n3 has lost its leader by now
    leaseRenew(s, id, (r) => (err = r.err?.name));
    c.runUntil(c.now() + seconds(6.9));
    expect(err).toBeUndefined();
    c.runUntil(c.now() + seconds(0.2));
    expect(err).toBe('ErrNoLeader');
  });
});

describe('revocation', () => {
  it('revokes 3000 leases expiring together at no more than 1000 per second', () => {
    const { c } = clusterHarness();
    c.runUntil(seconds(1));
    const revokes: number[] = [];
    c.trace.subscribe((e) => {
      if (e.kind === 'lease-revoke' && e.member === 'n1') revokes.push(e.t);
    });
    // Explicit IDs, all in one instant through the leader: they all expire together.
    let answered = 0;
    for (let i = 1; i <= 3000; i++) {
      c.server('n1')!.raftRequest({ type: 'LeaseGrant', id: BigInt(i), ttl: 5 }, () => answered++);
    }
    c.runUntil(seconds(15));
    expect(answered).toBe(3000);
    expect(revokes).toHaveLength(3000);
    for (const t0 of revokes) {
      const inWindow = revokes.filter((t) => t >= t0 && t < t0 + MICROS_PER_SECOND).length;
      expect(inWindow).toBeLessThanOrEqual(1000);
    }
    const span = (revokes.at(-1)! - revokes[0]!) / MICROS_PER_SECOND;
    expect(span).toBeGreaterThanOrEqual(2); // 500 per tick: six ticks, 2.5 s
    expect(c.marks.count('revoke-rate-limited')).toBeGreaterThan(0);
  });

  it('a revoke deletes every attached key at one revision on every member', () => {
    const { c, grant, call } = clusterHarness();
    c.runUntil(seconds(1));
    const id = grant(100);
    for (const k of ['/b', '/a', '/c']) call('n1', { op: 'Put', key: k, value: 'v', lease: id });
    const events = new Map<string, Array<[string, number]>>();
    for (const n of c.names) {
      const list: Array<[string, number]> = [];
      events.set(n, list);
      c.server(n)!.store.watch('/', { prefix: true }, (evs) =>
        evs.forEach((e) => {
          list.push([e.key, e.revision]);
        }),
      );
    }
    const before = c.server('n1')!.store.currentRevision;
    call('n2', { op: 'LeaseRevoke', id });
    c.runUntil(c.now() + ms(50));
    for (const n of c.names) {
      expect(events.get(n)).toEqual([
        ['/a', before + 1],
        ['/b', before + 1],
        ['/c', before + 1],
      ]);
      expect(c.server(n)!.store.currentRevision).toBe(before + 1);
    }
  });
});

describe('persistence', () => {
  it('a restarted member keeps every committed lease and key; a whole-cluster restart gives full TTL + ET', () => {
    const { c, grant, call } = clusterHarness();
    c.runUntil(seconds(1));
    const id = grant(30);
    call('n1', { op: 'Put', key: '/k', value: 'v', lease: id });
    c.runUntil(seconds(10));
    for (const n of c.names) c.crash(n);
    c.runUntil(seconds(20));
    for (const n of c.names) c.restart(n);
    let promotedAt = 0;
    c.trace.subscribe((e) => {
      if (e.kind === 'lessor-promote') promotedAt = e.t;
    });
    c.runUntil(seconds(25));
    const leader = c.leader()!;
    expect(leader).toBeDefined();
    for (const n of c.names) {
      expect(c.server(n)!.store.range('/k')?.lease).toBe(id);
      expect(c.server(n)!.lessor.lookup(id)?.ttl).toBe(30);
    }
    // Downtime never counts: the lease comes back with all 30 s plus the election timeout.
    expect(leader.lessor.lookup(id)!.expiry - promotedAt).toBe(seconds(31));
  });
});

describe('consistent index (what a restart applies again)', () => {
  /** A lease checkpointed at 2 s (interval 2 s): then, optionally, an unrelated put; then a whole-cluster restart. */
  const checkpointThenRestart = (profile: typeof V3_4, opts: { put: boolean; snapshotCount?: number }) => {
    const { c, grant, call } = clusterHarness({
      profile,
      leaseCheckpoint: true,
      checkpointIntervalUs: seconds(2),
      ...(opts.snapshotCount !== undefined ? { snapshotCount: opts.snapshotCount } : {}),
    });
    c.runUntil(seconds(1));
    const id = grant(30);
    c.runUntil(seconds(3.5)); // checkpointed on the 3.0 s run-loop pass: 28 s remaining
    if (opts.put) call('n1', { op: 'Put', key: '/unrelated', value: 'v', lease: 0n });
    c.runUntil(seconds(4));
    const indexes = c.names.map((n) => c.server(n)!.appliedIndex - c.server(n)!.disk.consistentIndex);
    for (const n of c.names) c.crash(n);
    c.runUntil(seconds(5));
    for (const n of c.names) c.restart(n);
    // What Promote found: the new leader's lease lasts remaining TTL (or the full 30 s when 0) + 1 s ET.
    let promotedFor: number | undefined;
    c.trace.subscribe((e) => {
      if (e.kind === 'lessor-promote' && promotedFor === undefined)
        promotedFor = (c.server(e.member)!.lessor.lookup(id)!.expiry - e.t) / MICROS_PER_SECOND;
    });
    c.runUntil(seconds(10));
    return { promotedFor, behind: indexes };
  };

  it('v3.4: only a keyspace change saves it, so a checkpoint after the last write is applied again on restart', () => {
    const r = checkpointThenRestart(V3_4, { put: false });
    expect(r.behind.every((b) => b > 0)).toBe(true); // grant and checkpoint left the saved index behind
    expect(r.promotedFor).toBe(28 + 1);
  });

  it('v3.4: one unrelated put saves it past the checkpoint, which is then lost on restart', () => {
    const r = checkpointThenRestart(V3_4, { put: true });
    expect(r.behind).toEqual([0, 0, 0]);
    expect(r.promotedFor).toBe(30 + 1);
  });

  it('v3.4: a snapshot saves it too, once more than snapshot-count entries were applied since the last', () => {
    // etcd's log on 3 members (measured on 3.4.23): 8 bootstrap entries (a ConfChange and a publish per
    // member, the first leader's empty entry, the cluster version), 9 the grant, 10 the checkpoint.
    // 10 - 0 > 9: a snapshot at the checkpoint.
    const r = checkpointThenRestart(V3_4, { put: false, snapshotCount: 9 });
    expect(r.behind).toEqual([0, 0, 0]);
    expect(r.promotedFor).toBe(30 + 1);
    // One entry fewer between snapshots than needed: none is taken and the checkpoint is applied again.
    expect(checkpointThenRestart(V3_4, { put: false, snapshotCount: 10 }).promotedFor).toBe(28 + 1);
  });

  it('v3.5 saves it for every entry: nothing is applied again', () => {
    const r = checkpointThenRestart(V3_5, { put: false });
    expect(r.behind).toEqual([0, 0, 0]);
    expect(r.promotedFor).toBe(30 + 1);
  });
});

describe('response headers', () => {
  it('a write answers with the revision it applied at, even when later writes applied before the reply left', () => {
    const { c, t } = clusterHarness();
    c.runUntil(seconds(1));
    const revs: number[] = [];
    for (const k of ['/a', '/b', '/c'])
      t.unary('n1', { op: 'Put', key: k, value: 'v', lease: 0n }, (r) =>
        revs.push('header' in r ? r.header.revision : -1),
      );
    c.runUntil(seconds(2));
    expect(revs).toEqual([2, 3, 4]);
    for (const [k, rev] of [
      ['/a', 2],
      ['/b', 3],
      ['/c', 4],
    ] as const)
      expect(c.server('n1')!.store.range(k)?.modRevision).toBe(rev);
  });
});
