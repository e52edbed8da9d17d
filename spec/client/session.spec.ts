// concurrency.Session (docs/lessor.md §5.3) and KeepAliveOnce (§5.2).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_TTL, isRpcError, Session } from '../../src/client/index.js';
import { NO_LEADER } from './fake-cluster.js';
import { S, capture, ok, world } from './harness.js';
import { fieldsOf } from '../../src/trace/trace.js';

describe('Session', () => {
  it('grants a 60 s lease by default and keeps it alive every 20 s (quantised to the send loop)', () => {
    const w = world();
    const c1 = w.client('c1');
    let s: Session | undefined;
    Session.create(c1, {}, (r) => (s = ok(r)));
    w.run(45 * S);
    expect(DEFAULT_SESSION_TTL).toBe(60);
    expect(s!.ttl).toBe(60);
    expect(w.events('client-grant', 'c1').map((e) => fieldsOf(e).ttl)).toEqual([60]);
    // Grant answered at 0.002 → KeepAlive; response 0.004 → next 20.004 → passes 0.002 + k·0.5 → 20.502.
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0.002, 20.502, 41.002]);
    expect(s!.done).toBe(false);
  });

  it('WithTTL ≤ 0 falls back to 60; WithLease skips the grant', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(30);
    let a: Session | undefined;
    let b: Session | undefined;
    Session.create(c1, { ttl: 0 }, (r) => (a = ok(r)));
    Session.create(c1, { lease: id, ttl: 30 }, (r) => (b = ok(r)));
    w.run(1 * S);
    expect(a!.ttl).toBe(60);
    expect(b!.lease).toBe(id);
    expect(w.cluster.requests.filter((r) => r.op === 'LeaseGrant').length).toBe(1);
  });

  it('is done when its lease is revoked behind its back (TTL 0 answer)', () => {
    const w = world();
    const c1 = w.client('c1');
    let s: Session | undefined;
    Session.create(c1, { ttl: 6 }, (r) => (s = ok(r)));
    const doneAt: number[] = [];
    w.at(1 * S, () => s!.onDone(() => doneAt.push(w.sched.now() / S)));
    w.at(3 * S, () => w.cluster.revokeNow(s!.lease));
    w.run(10 * S);
    expect(s!.doneReason).toBe('ttl<=0');
    // TTL 6 → every 2 s, quantised: sends at 0.002, 2.502 (0.004 + 2 → pass 2.502), 5.002 — answered TTL 0.
    expect(doneAt).toEqual([5.004]);
  });

  it('orphan() stops refreshing without revoking; close() revokes', () => {
    const w = world();
    const c1 = w.client('c1');
    let s1: Session | undefined;
    let s2: Session | undefined;
    Session.create(c1, { ttl: 10 }, (r) => (s1 = ok(r)));
    Session.create(c1, { ttl: 10 }, (r) => (s2 = ok(r)));
    w.at(1 * S, () => s1!.orphan());
    const closed = capture<unknown>(w.sched);
    w.at(1 * S, () => s2!.close(closed.cb));
    w.run(2 * S);
    expect(s1!.doneReason).toBe('cancelled');
    expect(s2!.doneReason).toBe('cancelled');
    expect(w.cluster.leaseExists(s1!.lease)).toBe(true);
    expect(w.cluster.leaseExists(s2!.lease)).toBe(false);
    expect(closed.at).toBe(1.002 * S);
    w.run(20 * S);
    // The orphaned lease runs out 10 s after its last renewal (0.003) → revoked on the 10.5 tick.
    expect(w.cluster.revokes.filter((r) => r.expired).map((r) => [r.id, r.t / S])).toEqual([[s1!.lease, 10.5]]);
  });
});

describe('KeepAliveOnce', () => {
  it('an unknown lease is answered TTL 0, which KeepAliveOnce turns into ErrLeaseNotFound', () => {
    const w = world();
    const c1 = w.client('c1');
    const r = capture<unknown>(w.sched);
    c1.keepAliveOnce(0x1234n, r.cb);
    w.run(1 * S);
    expect(isRpcError(r.value) && r.value.name).toBe('ErrLeaseNotFound');
    expect(isRpcError(r.value) && r.value.code).toBe('NotFound');
    expect(r.at).toBe(0.002 * S);
    expect(w.cluster.openKeepAliveStreams).toBe(0); // its dedicated stream is closed
  });

  it('renews once on a dedicated stream and returns the granted TTL', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    const r = capture<{ ttl: number }>(w.sched);
    w.at(5 * S, () => c1.keepAliveOnce(id, r.cb));
    w.run(6 * S);
    expect(ok(r.value!).ttl).toBe(9);
    expect(w.cluster.leaseExpiry(id)).toBe(14.001 * S);
    expect(c1.keepAlives.streamsOpened).toBe(0);
  });

  it('an error etcd sent halts it, even an Unavailable one: toErr makes it an EtcdError, isHaltErr gives up', () => {
    for (const err of [
      NO_LEADER,
      { code: 'Unavailable', name: 'ErrTimeout', message: 'etcdserver: request timed out' } as const,
    ]) {
      const w = world();
      const c1 = w.client('c1');
      const id = w.cluster.grantNow(9);
      w.cluster.setError('n1', err);
      const r = capture<unknown>(w.sched);
      c1.keepAliveOnce(id, r.cb);
      w.run(1 * S);
      expect(isRpcError(r.value) && r.value.name).toBe(err.name);
      expect(w.events('client-keepalive-once-send', 'c1')).toHaveLength(1);
    }
  });

  it('with no deadline (etcdctl) it waits as long as the member does; by default the request timeout ends it', () => {
    for (const [opts, settled] of [
      [{ noDeadline: true }, false],
      [{}, true],
    ] as const) {
      const w = world({ members: ['n1'] });
      const c1 = w.client('c1');
      const id = w.cluster.grantNow(9);
      w.cluster.setReachable('n1', false);
      const r = capture<unknown>(w.sched);
      c1.keepAliveOnce(id, r.cb, opts);
      w.run(60 * S);
      expect(r.value !== undefined).toBe(settled);
    }
  });

  it('retries a transport error (gRPC Unavailable the client saw itself) on the next member', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    w.cluster.setError('n1', { code: 'Unavailable', name: 'ErrConnectionRefused', message: 'connection refused' });
    const r = capture<{ ttl: number }>(w.sched);
    c1.keepAliveOnce(id, r.cb);
    w.run(1 * S);
    expect(ok(r.value!).ttl).toBe(9);
    expect(w.events('client-keepalive-once-send', 'c1').map((e) => [e.t / S, fieldsOf(e).endpoint])).toEqual([
      [0, 'n1'],
      [0.002, 'n2'],
    ]);
  });
});
