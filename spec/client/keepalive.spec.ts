// KeepAlive cadence, re-sends and the three ways a channel closes on its own (docs/lessor.md §5.2, §9 item 21).
// Fake latency is 1 ms each way, so a response arrives 2 ms after its request.
import { describe, expect, it } from 'vitest';
import { nextKeepAliveDelay } from '../../src/client/index.js';
import { MS, S, world } from './harness.js';
import { fieldsOf } from '../../src/trace/trace.js';

describe('keepalive cadence', () => {
  it('TTL 9: next keepalive 3 s after each response, sent on the next 500 ms send-loop pass', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    const ch = c1.keepAlive(id);
    const recvAt: number[] = [];
    ch.onResponse((r) => {
      expect(r.ttl).toBe(9);
      recvAt.push(w.sched.now() / S);
    });
    w.run(15 * S);
    // Pass at 0 sends at once; the response at 0.002 sets nextKeepAlive = 3.002, and the pass at 3.0 is
    // not strictly after it, so the next send is at 3.5; and so on: every 3.5 s at 1 ms latency.
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 3.5, 7, 10.5, 14]);
    expect(recvAt).toEqual([0.002, 3.502, 7.002, 10.502, 14.002]);
    expect(w.cluster.keepAliveArrivals(id).map((r) => r.t / S)).toEqual([0.001, 3.501, 7.001, 10.501, 14.001]);
    expect(ch.alive).toBe(true);
    expect(ch.responses).toBe(5);
  });

  it('with the measured drift (0.7 ms a pass) the 6th pass is already past the 2 ms round trip: every 3.0042 s', () => {
    const w = world();
    const c1 = w.client('c1', { sendPassDriftUs: 700 });
    const id = w.cluster.grantNow(9);
    c1.keepAlive(id);
    w.run(13 * S);
    // Passes at k × 500.7 ms. Response 0.002 → next 3.002; the 6th pass (3.0042) is strictly after it.
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 3.0042, 6.0084, 9.0126, 12.0168]);
  });

  it('a drift smaller than round trip / 6 still misses the 6th pass: every 3.5 s, shifted by the drift', () => {
    const w = world();
    const c1 = w.client('c1', { sendPassDriftUs: 300 });
    const id = w.cluster.grantNow(9);
    c1.keepAlive(id);
    w.run(8 * S);
    // 6 × 0.3 ms = 1.8 ms < 2 ms: the pass at 3.0018 is before 3.002, the send goes on the 7th (3.5021).
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 3.5021, 7.0042]);
  });

  it('quantises to the send loop’s own phase, not to whole seconds', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    w.at(300 * MS, () => c1.keepAlive(id));
    w.run(11 * S);
    // Passes at 0.3 + k·0.5; response 0.302 → next 3.302 → the pass at 3.3 is too early → 3.8.
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0.3, 3.8, 7.3, 10.8]);
  });

  it('TTL 5: TTL/3 is 1.666666666 s (integer ns), floored to 1.666666 s, sent at the following pass', () => {
    expect(nextKeepAliveDelay(5)).toBe(1_666_666);
    expect(nextKeepAliveDelay(9)).toBe(3_000_000);
    expect(nextKeepAliveDelay(1)).toBe(333_333);
    expect(nextKeepAliveDelay(9_000_000_000)).toBe(3_000_000_000_000_000);
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(5);
    c1.keepAlive(id);
    w.run(9 * S);
    // response 0.002 → next 1.668666 → pass 2.0; response 2.002 → 3.668666 → 4.0 …
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 2, 4, 6, 8]);
  });

  it('"strictly before now": a nextKeepAlive that falls exactly on a pass waits for the following one', () => {
    const w = world({ latencyUs: 166_667 });
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(5);
    c1.keepAlive(id);
    w.run(8 * S);
    // Send 0 → response 0.333334 → nextKeepAlive 0.333334 + 1.666666 = 2.0, exactly the 2.0 pass: not
    // strictly before it → 2.5; response 2.833334 → 4.5 → 5.0; and so on.
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 2.5, 5, 7.5]);
  });

  it(
    're-sends every 500 ms while unanswered, then closes with ' +
      'reason deadline at last response + TTL, checked each second',
    () => {
      const w = world();
      const c1 = w.client('c1', { endpoints: ['n1'], dialKeepAliveTimeUs: 0 });
      const id = w.cluster.grantNow(9);
      const ch = c1.keepAlive(id);
      w.at(2 * S, () => w.cluster.setReachable('n1', false));
      w.run(9.999 * S);
      expect(ch.alive).toBe(true);
      expect(c1.unexpired(id)).toBe(false); // deadline 9.002 has passed, the loop has not looked yet
      w.run(12 * S);
      const sends = w.times('client-keepalive-send', 'c1');
      expect(sends).toEqual([0, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5]);
      // deadline = 0.002 + 9 = 9.002; the 9.0 pass is before it, the 10.0 pass closes.
      expect(ch.closeReason).toBe('deadline');
      expect(ch.closedAt).toBe(10 * S);
      expect(w.events('client-keepalive-closed', 'c1').map((e) => [e.t / S, fieldsOf(e).reason])).toEqual([
        [10, 'deadline'],
      ]);
      expect(c1.keepAlives.leases).toEqual([]);
    },
  );

  it('closes with reason ttl<=0 on a TTL 0 answer (the lease was revoked), with no error', () => {
    const w = world();
    const c1 = w.client('c1');
    const id = w.cluster.grantNow(9);
    const ch = c1.keepAlive(id);
    w.at(5 * S, () => w.cluster.revokeNow(id));
    w.run(20 * S);
    expect(ch.closeReason).toBe('ttl<=0');
    expect(ch.closedAt).toBe(7.002 * S); // the send at 7.0 is answered TTL 0
    expect(w.times('client-keepalive-send', 'c1')).toEqual([0, 3.5, 7]);
    expect(w.events('client-keepalive-recv', 'c1').map((e) => fieldsOf(e).ttl)).toEqual([9, 9, 0]);
  });

  it('first deadline is firstKeepAliveTimeout: DialTimeout + 1 s (6 s by default), 5 s when DialTimeout is 0', () => {
    for (const [dial, fkt, closesAt] of [
      [undefined, 6, 7], // deadline 6.0: the 6.0 pass is not after it, the 7.0 pass closes
      [0, 5, 6],
      [2 * S, 3, 4],
    ] as const) {
      const w = world();
      const c1 = w.client('c1', {
        endpoints: ['n1'],
        dialKeepAliveTimeUs: 0,
        ...(dial !== undefined ? { dialTimeoutUs: dial } : {}),
      });
      expect(c1.firstKeepAliveTimeoutUs).toBe(fkt * S);
      w.cluster.setReachable('n1', false);
      const id = w.cluster.grantNow(60);
      const ch = c1.keepAlive(id);
      w.run((closesAt - 0.001) * S);
      expect(ch.alive).toBe(true);
      w.run(closesAt * S);
      expect(ch.closeReason).toBe('deadline');
      expect(ch.closedAt).toBe(closesAt * S);
    }
  });

  it('one stream carries every lease; a second caller of the same lease shares its state', () => {
    const w = world();
    const c1 = w.client('c1');
    const a = w.cluster.grantNow(9);
    const b = w.cluster.grantNow(30);
    const ch1 = c1.keepAlive(a);
    w.at(1.2 * S, () => c1.keepAlive(b));
    let second: ReturnType<typeof c1.keepAlive> | undefined;
    w.at(2 * S, () => (second = c1.keepAlive(a)));
    w.run(12 * S);
    expect(c1.keepAlives.streamsOpened).toBe(1);
    expect(w.cluster.openKeepAliveStreams).toBe(1);
    expect(
      w
        .events('client-keepalive-send', 'c1')
        .filter((e) => e.lease === b)
        .map((e) => e.t / S),
    ).toEqual([1.5, 12]); // 1.502 + 10 = 11.502 → the 12.0 pass
    expect(
      w
        .events('client-keepalive-send', 'c1')
        .filter((e) => e.lease === a)
        .map((e) => e.t / S),
    ).toEqual([0, 3.5, 7, 10.5]);
    expect(second!.responses).toBe(3);
    second!.close();
    expect(second!.closeReason).toBe('cancelled');
    expect(ch1.alive).toBe(true);
    ch1.close();
    expect(c1.keepAlives.leases).toEqual([b]);
  });
});
