// Pinned endpoint, failover, unary retries and deadlines (balancer.ts, conn.ts, invoke.ts).
import { describe, expect, it } from 'vitest';
import { isRpcError } from '../../src/client/index.js';
import type { WatchEvent } from '../../src/cluster/mvcc/index.js';
import { NO_LEADER } from './fake-cluster.js';
import { MS, S, capture, ok, world } from './harness.js';
import { fieldsOf } from '../../src/trace/trace.js';

const failovers = (w: ReturnType<typeof world>, member: string) =>
  w.events('client-failover', member).map((e) => [e.t / S, fieldsOf(e).from, fieldsOf(e).to, fieldsOf(e).reason]);

describe('failover', () => {
  it(
    'the pinned member stops answering: ' +
      'the connection is declared dead, ' +
      'keepalives continue on the next member',
    () => {
      const w = world();
      const c1 = w.client('c1'); // etcdctl's gRPC keepalive: 2 s time, 6 s timeout
      const id = w.cluster.grantNow(9);
      const ch = c1.keepAlive(id);
      w.at(4 * S, () => w.cluster.setReachable('n1', false));
      w.run(30 * S);
      // Last answer 3.502; the send at 7.0 goes unanswered; gRPC would have pinged at 5.502 and given up
      // 6 s later: the connection dies at 11.502 and the client moves to n2.
      expect(failovers(w, 'c1')).toEqual([[11.502, 'n1', 'n2', 'keepalive-timeout']]);
      const sends = w.events('client-keepalive-send', 'c1').map((e) => [e.t / S, fieldsOf(e).endpoint]);
      expect(sends.slice(0, 4)).toEqual([
        [0, 'n1'],
        [3.5, 'n1'],
        [7, 'n1'],
        [7.5, 'n1'],
      ]);
      expect(sends.filter(([, ep]) => ep === 'n1').length).toBe(12); // 0, 3.5, then every 500 ms 7.0 … 11.5
      // The stream is reopened retryConnWait after the error, on n2, and sends at once (nextKeepAlive is overdue).
      expect(w.events('client-keepalive-stream-open', 'c1').map((e) => [e.t / S, fieldsOf(e).endpoint])).toEqual([
        [0, 'n1'],
        [12.002, 'n2'],
      ]);
      expect(sends.filter(([, ep]) => ep === 'n2').map(([t]) => t)).toEqual([
        12.002, 15.502, 19.002, 22.502, 26.002, 29.502,
      ]);
      expect(c1.endpoint).toBe('n2');
      expect(ch.alive).toBe(true);
      expect(w.cluster.leaseExists(id)).toBe(true); // renewed at 12.003, before its 12.501 expiry
      expect(w.cluster.revokes).toEqual([]);
    },
  );

  it('without gRPC keepalive (clientv3’s default) a silent member is never abandoned: the lease is lost', () => {
    const w = world();
    const c1 = w.client('c1', { dialKeepAliveTimeUs: 0 });
    const id = w.cluster.grantNow(9);
    const ch = c1.keepAlive(id);
    w.at(4 * S, () => w.cluster.setReachable('n1', false));
    w.run(30 * S);
    expect(failovers(w, 'c1')).toEqual([]);
    expect(ch.closeReason).toBe('deadline');
    expect(ch.closedAt).toBe(13 * S); // 3.502 + 9 = 12.502 → the 13.0 pass
    expect(w.cluster.revokes.map((r) => r.t / S)).toEqual([13]); // renewed at 3.501 → expiry 12.501 → the 13.0 tick
  });

  it('ErrNoLeader on the stream: failover and reopen after 500 ms; channels without require-leader stay open', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    const ch = c1.keepAlive(id);
    w.at(5 * S, () => {
      w.cluster.setError('n1', NO_LEADER);
      w.cluster.closeKeepAliveStreams('n1', NO_LEADER);
    });
    w.run(12 * S);
    expect(w.events('client-keepalive-stream-error', 'c1').map((e) => [e.t / S, fieldsOf(e).error])).toEqual([
      [5.001, 'ErrNoLeader'],
    ]);
    expect(failovers(w, 'c1')).toEqual([[5.001, 'n1', 'n2', 'ErrNoLeader']]);
    expect(w.events('client-keepalive-stream-open', 'c1').map((e) => e.t / S)).toEqual([0, 5.501]);
    // nextKeepAlive 3.502 + 3 = 6.502: the new stream's passes at 5.501 and 6.001 are early, 6.501 too.
    expect(w.events('client-keepalive-send', 'c1').map((e) => [e.t / S, fieldsOf(e).endpoint])).toEqual([
      [0, 'n1'],
      [3.5, 'n1'],
      [7.001, 'n2'],
      [10.501, 'n2'],
    ]);
    expect(ch.alive).toBe(true);
  });

  it(
    'ErrNoLeader with require-leader: the channel closes, yet ' +
      '(upstream quirk) the lease is still renewed every 500 ms',
    () => {
      const w = world();
      const c1 = w.client('c1', { requireLeader: true });
      const id = w.cluster.grantNow(9);
      const ch = c1.keepAlive(id);
      w.at(5 * S, () => w.cluster.closeKeepAliveStreams('n1', NO_LEADER));
      w.run(9.9 * S);
      expect(ch.closeReason).toBe('no-leader');
      expect(ch.closedAt).toBe(5.001 * S);
      // The keepAlive entry survives with no channel; nextKeepAlive (6.502) never advances again.
      expect(c1.keepAlives.leases).toEqual([id]);
      expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 3.5, 7.001, 7.501, 8.001, 8.501, 9.001, 9.501]);
      // Cancelling the caller's context finally removes it.
      w.at(10 * S, () => ch.close());
      w.run(20 * S);
      expect(c1.keepAlives.leases).toEqual([]);
      expect(w.times('client-keepalive-send', 'c1').filter((t) => t > 10)).toEqual([]);
    },
  );

  it('a watch is re-created on the new member from the next revision: no event lost or repeated', () => {
    const w = world();
    const c1 = w.client('c1');
    const c2 = w.client('c2', { endpoints: ['n3'] });
    const id = w.cluster.grantNow(9);
    c1.keepAlive(id);
    const seen: WatchEvent[] = [];
    c1.watch('/k', { fromRevision: 1 }, { onEvents: (evs) => seen.push(...evs) });
    w.at(1 * S, () => c2.put('/k', 'a', {}, () => {}));
    w.at(4 * S, () => w.cluster.setReachable('n1', false));
    w.at(10 * S, () => c2.put('/k', 'b', {}, () => {})); // while c1's n1 is silent
    w.at(14 * S, () => c2.put('/k', 'c', {}, () => {}));
    w.run(20 * S);
    expect(failovers(w, 'c1')).toEqual([[11.502, 'n1', 'n2', 'keepalive-timeout']]);
    expect(seen.map((e) => [e.value, e.revision])).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 4],
    ]);
  });
});

describe('unary calls', () => {
  it('Unavailable: fail over and retry at once on the next member (no backoff before attempt 1)', () => {
    const w = world();
    const c1 = w.client('c1');
    w.cluster.setError('n1', NO_LEADER);
    const g = capture<{ id: bigint }>(w.sched);
    c1.grant(5, g.cb);
    w.run(1 * S);
    expect(w.cluster.requests.map((r) => [r.t / S, r.member, r.op])).toEqual([
      [0.001, 'n1', 'LeaseGrant'],
      [0.003, 'n2', 'LeaseGrant'],
    ]);
    expect(g.at).toBe(4 * MS);
    expect(ok(g.value!).id).toBeGreaterThan(0n);
    expect(c1.endpoint).toBe('n2');
    expect(failovers(w, 'c1')).toEqual([[0.002, 'n1', 'n2', 'ErrNoLeader']]);
  });

  it('repeatable retry: 100 attempts round the endpoints, 25 ms ± 10 % backoff once per quorum (2 of 3)', () => {
    const w = world();
    const c1 = w.client('c1');
    for (const m of w.cluster.members) w.cluster.setError(m, NO_LEADER);
    const g = capture<unknown>(w.sched);
    c1.timeToLive(1n, {}, g.cb);
    w.run(7 * S);
    expect(g.calls).toBe(1);
    expect(isRpcError(g.value) && g.value.name).toBe('ErrNoLeader');
    const arrivals = w.cluster.requests;
    expect(arrivals.length).toBe(100);
    expect(arrivals.slice(0, 6).map((r) => r.member)).toEqual(['n1', 'n2', 'n3', 'n1', 'n2', 'n3']);
    for (let k = 1; k < arrivals.length; k++) {
      const gap = arrivals[k]!.t - arrivals[k - 1]!.t - 2 * MS; // minus the round trip
      if (k % 2 === 0) {
        expect(gap).toBeGreaterThanOrEqual(22_500);
        expect(gap).toBeLessThanOrEqual(27_500);
      } else {
        expect(gap).toBe(0);
      }
    }
    expect(g.at).toBe(arrivals[99]!.t + MS);
  });

  it('the same seed gives the same jitter, a different seed another', () => {
    const run = (seed: string) => {
      const w = world({ seed });
      const c1 = w.client('c1');
      for (const m of w.cluster.members) w.cluster.setError(m, NO_LEADER);
      c1.leases(() => {});
      w.run(7 * S);
      return { hash: w.trace.hash(), times: w.cluster.requests.map((r) => r.t) };
    };
    expect(run('a')).toEqual(run('a'));
    expect(run('a').times).not.toEqual(run('b').times);
  });

  it('no answer: DeadlineExceeded at the request timeout (7 s), and the client moves on', () => {
    const w = world();
    const c1 = w.client('c1');
    w.cluster.setReachable('n1', false);
    const g = capture<unknown>(w.sched);
    c1.grant(5, g.cb);
    w.run(10 * S);
    expect(g.at).toBe(7 * S);
    expect(isRpcError(g.value) && g.value.name).toBe('DeadlineExceeded');
    expect(failovers(w, 'c1')).toEqual([[7, 'n1', 'n2', 'DeadlineExceeded']]);
    const g2 = capture<{ ttl: number }>(w.sched);
    c1.grant(5, g2.cb);
    w.run(11 * S);
    expect(ok(g2.value!).ttl).toBe(5);
    expect(g2.at).toBe(10.002 * S);
  });

  it('Put, Delete and Txn are not retried on Unavailable (non-repeatable), but the client still fails over', () => {
    const w = world();
    const c1 = w.client('c1');
    w.cluster.setError('n1', NO_LEADER);
    const p = capture<unknown>(w.sched);
    c1.put('/a', 'x', {}, p.cb);
    w.run(1 * S);
    expect(isRpcError(p.value) && p.value.name).toBe('ErrNoLeader');
    expect(w.cluster.requests.length).toBe(1);
    expect(c1.endpoint).toBe('n2');
  });

  it('grant is clamped by the server; timeToLive reports −1 for an unknown lease', () => {
    const w = world();
    const c1 = w.client('c1');
    const g = capture<{ ttl: number; id: bigint }>(w.sched);
    c1.grant(1, g.cb);
    const t = capture<{ ttl: number }>(w.sched);
    c1.timeToLive(42n, { keys: true }, t.cb);
    w.run(1 * S);
    expect(ok(g.value!).ttl).toBe(2);
    expect(ok(t.value!).ttl).toBe(-1);
  });

  it('close(): channels close with client-closed, calls in flight are cancelled, later calls fail', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    const ch = c1.keepAlive(id);
    w.cluster.setReachable('n2', false);
    const pending = capture<unknown>(w.sched);
    w.at(1 * S, () => c1.leases(pending.cb));
    w.at(1.0005 * S, () => c1.close());
    w.run(2 * S);
    expect(ch.closeReason).toBe('client-closed');
    expect(isRpcError(pending.value) && pending.value.name).toBe('Canceled');
    const later = capture<unknown>(w.sched);
    c1.grant(5, later.cb);
    const ch2 = c1.keepAlive(id);
    w.run(3 * S);
    expect(isRpcError(later.value) && later.value.name).toBe('ErrClientClosed');
    expect(ch2.closeReason).toBe('client-closed');
    expect(w.cluster.openKeepAliveStreams).toBe(0);
  });
});
