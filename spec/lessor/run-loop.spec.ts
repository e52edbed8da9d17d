import type { RenewOutcome } from '../../src/lessor/lessor.js';
import { describe, expect, it } from 'vitest';
import { ms, seconds } from '../../src/clock/time.js';
import { ErrLeaseNotFound, ErrNotPrimary, InvalidArgumentError, V3_4, V3_5 } from '../../src/lessor/index.js';
import { FakeDeleter, harness } from '../conformance/harness.js';

/** Drains the expired channel at every instant, recording (time, ids). */
function collect(h: ReturnType<typeof harness>) {
  const got: Array<[number, bigint[]]> = [];
  h.lessor.expiredLeasesC.onReady = () => {
    const b = h.lessor.expiredLeasesC.receive()!;
    got.push([h.sched.now(), b.map((l) => l.id)]);
  };
  return got;
}

describe('run loop', () => {
  it('ticks every 500 ms and offers a lease on the first tick at or after its expiry', () => {
    const h = harness(V3_5, { minLeaseTTLSeconds: 1 });
    const got = collect(h);
    h.sched.advance(ms(200));
    h.lessor.promote(0);
    h.lessor.grant(1n, 3); // expires at 3.2 s
    h.sched.advance(seconds(5));
    expect(got).toEqual([[ms(3500), [1n]]]);
  });

  it('offers at most rate/2 leases per tick and the rest on later ticks', () => {
    const h = harness(V3_5, { leaseRevokeRate: 100, minLeaseTTLSeconds: 1 });
    const got = collect(h);
    h.lessor.promote(0);
    for (let i = 1; i <= 120; i++) h.lessor.grant(BigInt(i), 2);
    h.sched.advance(seconds(4));
    expect(got.map(([t, ids]) => [t, ids.length])).toEqual([
      [seconds(2), 50],
      [ms(2500), 50],
      [seconds(3), 20],
    ]);
    expect(h.marks.count('revoke-rate-limited')).toBe(2);
  });

  it('re-offers an expired lease that was not revoked after the retry interval', () => {
    const h = harness(V3_5, { expiredLeasesRetryIntervalUs: seconds(7), minLeaseTTLSeconds: 1 });
    const got = collect(h);
    h.lessor.promote(0);
    h.lessor.grant(1n, 1);
    h.sched.advance(seconds(20));
    // Offered at 1 s, then every 7 s (rounded up to the next tick) while it stays unrevoked.
    expect(got.map(([t]) => t)).toEqual([seconds(1), seconds(8), seconds(15)]);
  });

  it('drops a batch when 16 are already waiting in expiredC', () => {
    const h = harness(V3_5, { leaseRevokeRate: 2, minLeaseTTLSeconds: 1 });
    h.lessor.promote(0);
    for (let i = 1; i <= 20; i++) h.lessor.grant(BigInt(i), 1);
    h.sched.advance(seconds(12));
    expect(h.lessor.expiredLeasesC.length).toBe(16);
    expect(h.marks.count('expired-batch-dropped')).toBeGreaterThan(0);
  });

  it('a follower never offers leases', () => {
    const h = harness(V3_5, { minLeaseTTLSeconds: 1 });
    const got = collect(h);
    h.lessor.grant(1n, 1);
    h.sched.advance(seconds(10));
    expect(got).toEqual([]);
    expect(h.lessor.lookup(1n)!.demoted()).toBe(true);
  });

  it(
    'v3.4 keys the expiry heap on the wall clock: a backward ' +
      'jump delays the offer, a forward jump cannot expire early',
    () => {
      for (const [jump, expected] of [
        [-seconds(30), seconds(33)],
        [seconds(30), ms(3500)],
      ] as const) {
        const h = harness(V3_4, { minLeaseTTLSeconds: 1 });
        const got = collect(h);
        h.lessor.promote(0);
        h.lessor.grant(1n, 3);
        h.sched.advance(ms(100));
        h.proc.jumpWall(jump);
        h.sched.advance(seconds(40));
        // Forward: the entry looks due at once but expired() reads the monotonic clock, so the lease is only
        // re-armed (retry interval 3 s) and offered on the first check after 3 s.
        expect(got[0]?.[0]).toBe(expected);
      }
    },
  );

  it('v3.5 is immune to wall-clock jumps', () => {
    const h = harness(V3_5, { minLeaseTTLSeconds: 1 });
    const got = collect(h);
    h.lessor.promote(0);
    h.lessor.grant(1n, 3);
    h.proc.jumpWall(-seconds(30));
    h.sched.advance(seconds(10));
    expect(got[0]?.[0]).toBe(seconds(3));
  });

  it('checkpoints long leases on schedule and skips ones renewed since', () => {
    const h = harness(V3_5, { checkpointIntervalUs: seconds(10), minLeaseTTLSeconds: 1 });
    const calls: Array<[number, bigint, number]> = [];
    h.lessor.setCheckpointer((cps, done) => {
      for (const c of cps) {
        calls.push([h.sched.now(), c.id, c.remainingTTL]);
        h.lessor.checkpoint(c.id, c.remainingTTL);
      }
      done();
    });
    h.lessor.promote(0);
    h.lessor.grant(1n, 30);
    h.lessor.grant(2n, 30);
    h.sched.advance(ms(9900));
    h.lessor.renew(2n, () => {});
    h.sched.advance(seconds(25));
    // Lease 1: 20 s left at 10 s, then 10 s left at 20 s (10 is not > 10, so the chain stops).
    // Lease 2 was renewed at 9.9 s: ceil(29.9) = 30 >= ttl, skipped, and never rescheduled.
    expect(calls).toEqual([
      [seconds(10), 1n, 20],
      [seconds(20), 1n, 10],
    ]);
    expect(h.marks.count('checkpoint-skipped')).toBe(1);
  });

  it('stop releases a blocked renew with ErrNotPrimary and ends the loop', () => {
    const h = harness(V3_5, { minLeaseTTLSeconds: 1 });
    h.lessor.promote(0);
    h.lessor.grant(1n, 1);
    h.sched.advance(seconds(2));
    let err: RenewOutcome['err'];
    h.lessor.renew(1n, (o) => (err = o.err));
    h.lessor.stop();
    h.sched.advance(1);
    expect(err).toBe(ErrNotPrimary);
    expect(h.sched.pending).toBe(0);
  });
});

describe('renew', () => {
  it('returns the granted TTL and extends by the stale remainingTTL when no checkpointer is installed', () => {
    const h = harness(V3_5);
    h.lessor.promote(0);
    const l = h.lessor.grant(1n, 60);
    h.lessor.checkpoint(1n, 20);
    let ttl: RenewOutcome['ttl'] | undefined;
    h.lessor.renew(1n, (o) => (ttl = o.ttl));
    expect(ttl).toBe(60);
    expect(l.expiry - h.sched.now()).toBe(seconds(20));
  });

  it('v3.4 renews a lease revoked while its clearing checkpoint was in flight; v3.5 answers ErrLeaseNotFound', () => {
    for (const [profile, expectErr] of [
      [V3_4, undefined],
      [V3_5, ErrLeaseNotFound],
    ] as const) {
      const h = harness(profile);
      h.lessor.setRangeDeleter(new FakeDeleter().txn);
      let pending: (() => void) | undefined;
      h.lessor.setCheckpointer((cps, done) => {
        pending = () => {
          for (const c of cps) h.lessor.checkpoint(c.id, c.remainingTTL);
          done();
        };
      });
      h.lessor.promote(0);
      h.lessor.grant(1n, 60);
      h.lessor.checkpoint(1n, 30);
      let out: RenewOutcome | undefined;
      h.lessor.renew(1n, (o) => (out = o));
      h.lessor.revoke(1n);
      pending!();
      expect(out).toEqual(expectErr ? { ttl: -1, err: expectErr } : { ttl: 60 });
    }
  });
});

describe('bad input', () => {
  it('rejects arguments etcd has no error for, leaving the lessor untouched', () => {
    const h = harness(V3_5);
    expect(() => h.lessor.grant(1n, 2.5)).toThrow(InvalidArgumentError);
    expect(() => h.lessor.grant(1n << 64n, 10)).toThrow(InvalidArgumentError);
    expect(h.lessor.leases()).toEqual([]);
    expect(() => harness(V3_5, { leaseRevokeRate: -1 })).toThrow(InvalidArgumentError);
    expect(() => harness(V3_5, { leaseRevokeRate: 1 })).toThrow(InvalidArgumentError);
    expect(() => harness(V3_5, { checkpointIntervalUs: 0.5 })).toThrow(InvalidArgumentError);
    expect(() => harness(V3_5, { clusterVersion: 'latest' })).toThrow(InvalidArgumentError);
  });

  it('answers etcd errors for unknown leases', () => {
    const h = harness(V3_5);
    expect(() => h.lessor.grant(0n, 10)).toThrow(ErrLeaseNotFound);
    expect(() => h.lessor.revoke(9n)).toThrow(ErrLeaseNotFound);
    expect(() => h.lessor.attach(9n, ['a'])).toThrow(ErrLeaseNotFound);
    expect(() => h.lessor.detach(9n, ['a'])).toThrow(ErrLeaseNotFound);
    h.lessor.promote(0);
    let err: RenewOutcome['err'];
    h.lessor.renew(9n, (o) => (err = o.err));
    expect(err).toBe(ErrLeaseNotFound);
  });

  it('clamps zero and negative TTLs to the minimum', () => {
    const h = harness(V3_5);
    expect(h.lessor.grant(1n, 0).ttl).toBe(5);
    expect(h.lessor.grant(2n, -7).ttl).toBe(5);
  });
});
