// etcd's server/lease/lessor_test.go (3.4.23 and 3.5.33), restated against the model, same numbers.
import { describe, expect, it } from 'vitest';
import { MICROS_PER_SECOND, seconds } from '../../src/clock/time.js';
import {
  ErrLeaseExists,
  ErrLeaseNotFound,
  ErrLeaseTTLTooLarge,
  ErrNotPrimary,
  LeaseBucket,
  MaxLeaseTTL,
  type LeaseCheckpoint,
  type RenewOutcome,
} from '../../src/lessor/index.js';
import { FakeDeleter, harness, minLeaseTTL, profiles } from './harness.js';

describe.each(profiles)('lessor conformance ($name)', (profile) => {
  it('TestLessorGrant', () => {
    const { lessor, proc, bucket } = harness(profile);
    lessor.promote(0);
    const l = lessor.grant(1n, 1);
    expect(l.ttl).toBe(minLeaseTTL);
    expect(lessor.lookup(1n)).toBe(l);
    expect(l.remaining(proc.now())).toBeGreaterThanOrEqual(seconds(minLeaseTTL - 1));
    expect(() => lessor.grant(1n, 1)).toThrow(ErrLeaseExists);
    const l2 = lessor.grant(2n, 1);
    expect(l2.id).not.toBe(l.id);
    expect(lessor.leases().map((x) => [x.id, x.ttl])).toEqual([
      [1n, minLeaseTTL],
      [2n, minLeaseTTL],
    ]);
    expect(bucket.get(1n)).toEqual({ id: 1n, ttl: minLeaseTTL, remainingTTL: 0 });
  });

  it('TestLeaseConcurrentKeys', () => {
    const { lessor } = harness(profile);
    lessor.setRangeDeleter(new FakeDeleter().txn);
    lessor.grant(1n, 100);
    const items = Array.from({ length: 100 }, (_, i) => `foo${i}`);
    lessor.attach(1n, items);
    const l = lessor.lookup(1n)!;
    const snapshot = l.keys();
    lessor.detach(1n, items.slice(0, 50));
    // Keys() is a consistent copy: detaching afterwards does not change what the caller holds.
    expect(snapshot).toHaveLength(100);
    expect(l.keys()).toHaveLength(50);
  });

  it('TestLessorRevoke', () => {
    const { lessor, bucket } = harness(profile);
    const fd = new FakeDeleter();
    lessor.setRangeDeleter(fd.txn);
    const l = lessor.grant(1n, 100);
    lessor.attach(1n, ['foo', 'bar']);
    lessor.revoke(l.id);
    expect(lessor.lookup(l.id)).toBeUndefined();
    expect(fd.deleted).toEqual(['bar_', 'foo_']);
    expect(bucket.get(1n)).toBeUndefined();
  });

  it('TestLessorRenew', () => {
    const { lessor, proc } = harness(profile);
    lessor.setRangeDeleter(new FakeDeleter().txn);
    lessor.promote(0);
    const l = lessor.grant(1n, minLeaseTTL);
    l.ttl = 10; // etcd's test edits the ttl by hand
    let out: RenewOutcome | undefined;
    lessor.renew(l.id, (o) => (out = o));
    expect(out).toEqual({ ttl: 10 });
    expect(lessor.lookup(l.id)!.remaining(proc.now())).toBeGreaterThanOrEqual(seconds(9));
  });

  it('TestLessorRenewWithCheckpointer', () => {
    const { lessor, proc } = harness(profile);
    lessor.setCheckpointer((cps, done) => {
      for (const c of cps) lessor.checkpoint(c.id, c.remainingTTL);
      done();
    });
    lessor.promote(0);
    const l = lessor.grant(1n, minLeaseTTL);
    l.ttl = 10;
    l.remainingTTL = 10;
    let out: RenewOutcome | undefined;
    lessor.renew(l.id, (o) => (out = o));
    expect(out).toEqual({ ttl: 10 });
    expect(l.remainingTTL).toBe(0);
    expect(l.remaining(proc.now())).toBeGreaterThanOrEqual(seconds(9));
  });

  it('TestLessorRenewExtendPileup', () => {
    const revokeRate = 10;
    const bucket = new LeaseBucket();
    const first = harness(profile, { leaseRevokeRate: revokeRate }, bucket);
    for (let i = 1; i <= revokeRate * 10; i++) {
      first.lessor.grant(BigInt(2 * i), 10);
      first.lessor.grant(BigInt(2 * i + 1), 11);
    }
    first.lessor.stop();
    const le = first.make(bucket);
    le.promote(0);
    const now = first.proc.now();
    const windows = new Map<number, number>();
    for (const l of le.inspect().leaseMap.values()) {
      const s = Math.trunc(l.remaining(now) / MICROS_PER_SECOND + 0.1);
      windows.set(s, (windows.get(s) ?? 0) + 1);
    }
    for (let s = 10; s < 30; s++) {
      expect(windows.get(s) ?? 0, `window ${s}s`).toBeLessThanOrEqual(revokeRate);
      expect(windows.get(s) ?? 0, `window ${s}s`).toBeGreaterThanOrEqual(revokeRate / 2);
    }
    // The reference's exact outcome: 7, 6, then 7 per second, 5 in the last window; the last lease at 38.571 s.
    const counts = Array.from({ length: 29 }, (_, i) => windows.get(10 + i) ?? 0);
    expect(counts).toEqual([7, 6, ...Array(26).fill(7), 5]);
    const last = Math.max(...[...le.inspect().leaseMap.values()].map((l) => l.remaining(now)));
    expect(last / MICROS_PER_SECOND).toBeCloseTo(38.571, 3);
    expect(first.marks.count('promote-spreads-pileup')).toBe(1);
  });

  it('TestLessorDetach', () => {
    const { lessor } = harness(profile);
    lessor.setRangeDeleter(new FakeDeleter().txn);
    const l = lessor.grant(1n, 100);
    lessor.attach(l.id, ['foo', 'bar']);
    lessor.detach(l.id, ['foo']);
    expect([...l.itemSet]).toEqual(['bar']);
  });

  it('TestLessorRecover', () => {
    const { lessor, make, bucket } = harness(profile);
    const l1 = lessor.grant(1n, 10);
    const l2 = lessor.grant(2n, 20);
    const le2 = make(bucket);
    expect(le2.lookup(1n)?.ttl).toBe(l1.ttl);
    expect(le2.lookup(2n)?.ttl).toBe(l2.ttl);
  });

  it('TestLessorExpire', () => {
    const { lessor, sched } = harness(profile, { minLeaseTTLSeconds: 1 });
    lessor.promote(seconds(1));
    const l = lessor.grant(1n, 1);
    // Grant refreshes with no extension, even right after Promote(1 s).
    expect(l.expiry).toBe(sched.now() + seconds(1));
    let batch: ReturnType<typeof lessor.expiredLeasesC.receive>;
    while ((batch = lessor.expiredLeasesC.receive()) === undefined && sched.now() < seconds(10)) sched.advance(1000);
    expect(batch?.[0]?.id).toBe(l.id);
    let out: RenewOutcome | undefined;
    lessor.renew(l.id, (o) => (out = o));
    sched.advance(50_000);
    expect(out).toBeUndefined(); // blocked on the expired lease
    lessor.revoke(l.id);
    sched.advance(1);
    expect(out?.err).toBe(ErrLeaseNotFound);
  });

  it('TestLessorExpireAndDemote', () => {
    const { lessor, sched, marks } = harness(profile, { minLeaseTTLSeconds: 1 });
    lessor.promote(seconds(1));
    const l = lessor.grant(1n, 1);
    let batch: ReturnType<typeof lessor.expiredLeasesC.receive>;
    while ((batch = lessor.expiredLeasesC.receive()) === undefined && sched.now() < seconds(10)) sched.advance(1000);
    expect(batch?.[0]?.id).toBe(l.id);
    let out: RenewOutcome | undefined;
    lessor.renew(l.id, (o) => (out = o));
    sched.advance(50_000);
    expect(out).toBeUndefined();
    lessor.demote();
    sched.advance(1);
    expect(out?.err).toBe(ErrNotPrimary);
    expect(marks.count('renew-waits-for-revoke')).toBe(1);
  });

  it('TestLessorMaxTTL', () => {
    const { lessor } = harness(profile);
    expect(() => lessor.grant(1n, MaxLeaseTTL + 1)).toThrow(ErrLeaseTTLTooLarge);
    // MaxLeaseTTL itself is allowed.
    expect(lessor.grant(2n, MaxLeaseTTL).ttl).toBe(MaxLeaseTTL);
  });

  it('TestLessorCheckpointScheduling', () => {
    const { lessor, sched } = harness(profile, { checkpointIntervalUs: seconds(1), minLeaseTTLSeconds: 1 });
    const calls: LeaseCheckpoint[][] = [];
    lessor.setCheckpointer((cps, done) => {
      calls.push([...cps]);
      done();
    });
    lessor.grant(1n, 2);
    lessor.promote(0);
    sched.advance(seconds(2));
    expect(calls).toEqual([[{ id: 1n, remainingTTL: 1 }]]);
  });

  it('TestLessorCheckpointsRestoredOnPromote', () => {
    const { lessor, proc } = harness(profile);
    const l = lessor.grant(1n, 10);
    lessor.checkpoint(1n, 5);
    lessor.promote(0);
    const r = l.remaining(proc.now());
    expect(r).toBeGreaterThan(seconds(4));
    expect(r).toBeLessThanOrEqual(seconds(5));
  });

  it('TestLeaseBackend', () => {
    const bucket = new LeaseBucket();
    expect(bucket.all()).toEqual([]);
    bucket.put({ id: -1n, ttl: 2, remainingTTL: 0 });
    expect(bucket.all()).toEqual([{ id: -1n, ttl: 2, remainingTTL: 0 }]);
    const MinInt64 = -(1n << 63n);
    const MaxInt64 = (1n << 63n) - 1n;
    bucket.put({ id: MinInt64, ttl: 2, remainingTTL: 0 });
    bucket.put({ id: MaxInt64, ttl: 3, remainingTTL: 0 });
    bucket.delete(-1n);
    // Byte order of the big-endian key: MaxInt64 (0x7f…) before MinInt64 (0x80…).
    expect(bucket.all().map((r) => [r.id, r.ttl])).toEqual([
      [MaxInt64, 3],
      [MinInt64, 2],
    ]);
    // And a lessor recovering from it loads negative IDs too.
    const { lessor } = harness(profile, {}, bucket);
    expect(lessor.leases().map((l) => l.id)).toEqual([MaxInt64, MinInt64]);
  });

  describe('TestLessorCheckpointPersistenceAfterRestart', () => {
    const cases: Array<[string, string | undefined, boolean, number]> = [
      ['v3.6 and newer persist remainingTTL on checkpoint', '3.6.0', false, 5],
      ['v3.5 and older persist remainingTTL if CheckpointPersist is set', profile.etcdVersion, true, 5],
      ['version unknown persists remainingTTL if CheckpointPersist is set', undefined, true, 5],
      ['v3.5 and older reset remainingTTL on checkpoint', profile.etcdVersion, false, 10],
      ['version unknown falls back to v3.5 behaviour', undefined, false, 10],
    ];
    it.each(cases)('%s', (_name, clusterVersion, checkpointPersist, expected) => {
      const { lessor, make, bucket } = harness(profile, { clusterVersion, checkpointPersist });
      const l = lessor.grant(2n, 10);
      expect(l.getRemainingTTL()).toBe(10);
      lessor.checkpoint(2n, 5);
      expect(l.getRemainingTTL()).toBe(5);
      lessor.stop();
      const le2 = make(bucket, { clusterVersion: '3.6.0', checkpointPersist });
      expect(le2.lookup(2n)!.getRemainingTTL()).toBe(expected);
    });
  });
});
