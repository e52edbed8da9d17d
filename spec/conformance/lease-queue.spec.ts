// etcd's lease_queue_test.go TestLeaseQueue, restated: expireExists re-arms a due entry in place.
import { describe, expect, it } from 'vitest';
import { ms, seconds } from '../../src/clock/time.js';
import { EMPTY, NOT_DUE, STALE, expireExists } from '../../src/lessor/lessor.js';
import { Lease } from '../../src/lessor/index.js';
import { LeaseExpiredNotifier } from '../../src/lessor/lease-queue.js';
import { LeaseTable } from '../../src/lessor/lease-table.js';

describe('lease queue conformance', () => {
  it('TestLeaseQueue', () => {
    const retry = ms(100);
    const leaseMap = new LeaseTable();
    const notifier = new LeaseExpiredNotifier(leaseMap);
    let now = seconds(1000);
    // Inserted in reverse order of expiry: 50..2 in an hour, lease 1 now.
    for (let i = 50; i >= 1; i--) {
      const l = new Lease(BigInt(i), 0, 50 - i);
      const slot = leaseMap.slotFor(l.id);
      leaseMap.put(slot, l);
      notifier.registerOrUpdate(slot, i === 1 ? now : now + seconds(3600));
    }
    expect(notifier.poll()!.id).toBe(1n);

    const existExpiredEvent = () => {
      const s = expireExists(notifier, now, retry);
      expect(s).toBe(leaseMap.get(1n));
      // Pushed back, not removed: still 50 entries and lease 1 still at the root.
      expect(notifier.len()).toBe(50);
      expect(notifier.poll()!.id).toBe(1n);
      expect(notifier.poll()!.time).toBe(now + retry);
    };
    const noExpiredEvent = () => expect(expireExists(notifier, now, retry)).toBe(NOT_DUE);

    existExpiredEvent();
    noExpiredEvent();
    now += retry;
    existExpiredEvent();
  });

  it('drops entries of revoked leases lazily and reports an empty queue', () => {
    const leaseMap = new LeaseTable();
    const notifier = new LeaseExpiredNotifier(leaseMap);
    // An entry whose lease is gone (revoked after it was armed).
    notifier.registerOrUpdate(leaseMap.slotFor(7n), 0);
    expect(expireExists(notifier, 10, 1)).toBe(STALE);
    expect(notifier.len()).toBe(0);
    // Popping the stale entry lets go of the ID's slot too.
    expect(leaseMap.slot(7n)).toBeUndefined();
    expect(expireExists(notifier, 10, 1)).toBe(EMPTY);
  });
});
