// Lease IDs are keyed by number inside the lessor's maps: exact for every ID the model allocates, and
// IDs beyond the safe integer range (which a scenario may grant) keep bigint keys that never collide.
import { describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import { IdGenerator } from '../../src/cluster/server/id-gen.js';
import { V3_5 } from '../../src/lessor/index.js';
import { isSafeLeaseId, LeaseIdMap } from '../../src/lessor/lease-id.js';
import { MAX_MEMBERS } from '../../src/scenario/context.js';
import { FakeDeleter, harness } from '../conformance/harness.js';

const MaxInt64 = 2n ** 63n - 1n;
const MinInt64 = -(2n ** 63n);
const MASK63 = (1n << 63n) - 1n;

describe('lease ID keys', () => {
  it('are exact numbers for every ID the model allocates, at either end of the timestamp and counter', () => {
    // The largest possible: member MAX_MEMBERS, the 40-bit millisecond field all ones, the counter wrapping.
    const inexact: bigint[] = [];
    let checked = 0;
    for (let member = 1; member <= MAX_MEMBERS; member++) {
      for (const startMs of [0, 1_767_225_600_000, 2 ** 40 - 1]) {
        const gen = new IdGenerator(member, startMs);
        for (let i = 0; i < 300; i++) {
          const id = gen.next() & MASK63;
          const keyed = [...new LeaseIdMap<number>().set(id, 1).keys()];
          if (!isSafeLeaseId(id) || keyed.length !== 1 || keyed[0] !== id) inexact.push(id);
          checked++;
        }
      }
    }
    expect(inexact).toEqual([]);
    expect(checked).toBe(MAX_MEMBERS * 3 * 300);
    // Beyond the generator's reach the key stays a bigint.
    expect(isSafeLeaseId(2n ** 53n)).toBe(false);
    expect(isSafeLeaseId(-(2n ** 53n))).toBe(false);
    expect(isSafeLeaseId(2n ** 53n - 1n)).toBe(true);
  });

  it('tell apart IDs a double cannot, and iterate safe IDs first, each kind in grant order', () => {
    const h = harness(V3_5);
    h.lessor.setRangeDeleter(new FakeDeleter().txn);
    h.lessor.promote(0);
    const ids = [2n ** 53n + 1n, 7n, 2n ** 53n, MaxInt64, -1n, 2n ** 53n - 1n, MinInt64, MaxInt64 - 1n];
    for (const [i, id] of ids.entries()) h.lessor.grant(id, 10 + i);
    ids.forEach((id, i) => {
      expect(h.lessor.lookup(id)?.id).toBe(id);
      expect(h.lessor.lookup(id)?.ttl).toBe(10 + i);
      expect(h.bucket.get(id)?.ttl).toBe(10 + i);
    });
    expect([...h.lessor.inspect().leaseMap.keys()]).toEqual([
      7n,
      -1n,
      2n ** 53n - 1n,
      2n ** 53n + 1n,
      2n ** 53n,
      MaxInt64,
      MinInt64,
      MaxInt64 - 1n,
    ]);
    h.lessor.revoke(2n ** 53n);
    expect(h.lessor.lookup(2n ** 53n)).toBeUndefined();
    expect(h.lessor.lookup(2n ** 53n + 1n)?.id).toBe(2n ** 53n + 1n);
    expect(h.lessor.inspect().leaseMap.size).toBe(ids.length - 1);
  });

  it("keep a revoked lease's notifier entry until it reaches the root, and a re-grant re-arms that entry", () => {
    const h = harness(V3_5);
    h.lessor.setRangeDeleter(new FakeDeleter().txn);
    h.lessor.promote(0);
    h.lessor.grant(1n, 10);
    h.lessor.grant(2n, 20);
    h.lessor.revoke(1n);
    // Lazy deletion, as etcd: the entry stays.
    expect(h.lessor.inspect().notifier.map((e) => e.id)).toEqual([1n, 2n]);
    expect(h.lessor.inspect().leaseMap.size).toBe(1);
    h.lessor.grant(1n, 30);
    const n = h.lessor.inspect().notifier;
    expect(n).toHaveLength(2);
    expect(n.find((e) => e.id === 1n)?.time).toBe(seconds(30));
    // The re-granted lease iterates after lease 2, as a newly put lease.
    expect([...h.lessor.inspect().leaseMap.keys()]).toEqual([2n, 1n]);
    h.lessor.revoke(1n);
    h.lessor.revoke(2n);
    h.sched.advance(seconds(31));
    expect(h.lessor.inspect().notifier).toHaveLength(0);
  });
});
