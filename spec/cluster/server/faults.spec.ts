// Faults as a client sees them: a dead or stopped member never answers, the client's deadline does.
import { describe, expect, it } from 'vitest';
import { Process } from '../../../src/clock/process.js';
import { ms, seconds } from '../../../src/clock/time.js';
import { EtcdClient } from '../../../src/client/index.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { leaseRenew } from '../../../src/cluster/server/lease-ops.js';

function clientOn(c: Cluster, endpoints: string[]) {
  const p = new Process('c1', c.sched);
  return new EtcdClient({
    name: 'c1',
    process: p,
    transport: c.connect('c1', p),
    prng: c.prng.fork('c1'),
    endpoints,
    dialKeepAliveTimeUs: 0,
  });
}

describe('faults seen by a client', () => {
  it('a request to a paused member fails with DeadlineExceeded at the client deadline', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    const client = clientOn(c, ['n2']);
    c.pause('n2');
    let err: string | undefined;
    const sentAt = c.now();
    client.put('/k', 'v', {}, (r) => (err = 'name' in r ? r.name : 'ok'));
    c.runUntil(sentAt + seconds(7) - 1);
    expect(err).toBeUndefined();
    c.runUntil(sentAt + seconds(7) + ms(1));
    expect(err).toBe('DeadlineExceeded');
  });

  it('a crashed member refuses the connection at once: Unavailable after one round trip', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    const client = clientOn(c, ['n2']);
    c.crash('n2');
    let err: string | undefined;
    const sentAt = c.now();
    client.put('/k', 'v', {}, (r) => (err = 'name' in r ? r.name : 'ok'));
    c.runUntil(sentAt + ms(2));
    expect(err).toBe('ErrConnectionRefused');
  });

  it('a renewal forwarded to a crashed leader is refused and retried until the new leader answers', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    let id = 0n;
    c.server('n1')!.raftRequest({ type: 'LeaseGrant', id: 7n, ttl: 30 }, (r) => (id = r.ok ? 7n : -1n));
    c.runUntil(seconds(2));
    expect(id).toBe(7n);
    c.crash('n1');
    const follower = ['n2', 'n3'].map((n) => c.server(n)!);
    let ttl: number | undefined;
    let answeredAt = 0;
    // A follower still believes n1 leads for a while; the refused calls keep the loop going.
    leaseRenew(follower[0]!, 7n, (r) => {
      ttl = r.err === undefined ? r.ttl : -1;
      answeredAt = c.now();
    });
    c.runUntil(seconds(9));
    expect(ttl).toBe(30);
    const promoted = c.leader()!;
    expect(answeredAt).toBeLessThan(seconds(9));
    expect(promoted.name).not.toBe('n1');
  });

  it('a paused member handles what reached it when it resumes', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    const client = clientOn(c, ['n2']);
    c.pause('n2');
    let rev: number | undefined;
    client.put('/k', 'v', {}, (r) => (rev = 'header' in r ? r.header.revision : -1));
    c.runUntil(seconds(3));
    expect(rev).toBeUndefined();
    c.resume('n2');
    c.runUntil(seconds(3) + ms(20));
    expect(rev).toBe(2);
  });

  it('a fault that names an unknown member is a clear error', () => {
    const c = new Cluster({ members: 3 });
    expect(() => c.crash('n7')).toThrow(/unknown member n7; members are n1, n2, n3/);
    expect(() => c.partition([['n1'], ['n9']])).toThrow(/unknown member n9/);
  });

  it('a partition cuts peer traffic but not clients: the minority leader steps down, the majority elects', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    c.partition([['n1'], ['n2', 'n3']]);
    c.runUntil(seconds(5));
    expect(c.server('n1')!.raft.role).not.toBe('leader');
    expect(['n2', 'n3']).toContain(c.leader()?.name);
    // A client still reaches n1, which cannot commit: its write times out.
    const client = clientOn(c, ['n1']);
    let err: string | undefined;
    client.put('/k', 'v', {}, (r) => (err = 'name' in r ? r.name : 'ok'));
    c.runUntil(seconds(13));
    expect(err).toBe('DeadlineExceeded');
    c.heal();
    c.runUntil(seconds(16));
    expect(c.server('n1')!.raft.leader).toBe(c.leader()!.name);
  });

  it('committed data survives a crash and restart of every member', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    const client = clientOn(c, ['n1']);
    let done = false;
    client.put('/k', 'v1', {}, () => (done = true));
    c.runUntil(seconds(2));
    expect(done).toBe(true);
    for (const n of c.names) c.crash(n);
    for (const n of c.names) c.restart(n);
    c.runUntil(seconds(6));
    for (const n of c.names) expect(c.server(n)!.store.range('/k')?.value).toBe('v1');
  });

  it('a stalled raft loop keeps the member serving but stops it from leading', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    c.stall('n1', 'raft');
    c.runUntil(seconds(5));
    // n1 still believes it leads (its raft loop never heard otherwise); the others elected a new leader.
    expect(c.server('n1')!.raft.role).toBe('leader');
    expect(c.server('n1')!.lessor.isPrimary()).toBe(true);
    const others = ['n2', 'n3'].map((n) => c.server(n)!.raft);
    expect(others.some((r) => r.role === 'leader' && r.term > c.server('n1')!.raft.term)).toBe(true);
    c.unstall('n1', 'raft');
    c.runUntil(seconds(6));
    expect(c.server('n1')!.raft.role).toBe('follower');
    expect(c.server('n1')!.lessor.isPrimary()).toBe(false);
  });
});
