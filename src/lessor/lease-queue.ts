import { TimeHeap, type HeapItem } from '../clock/time-heap.js';
import type { Micros } from '../clock/time.js';
import { LeaseIdMap, type LeaseID } from './lease-id.js';

/**
 * A heap entry: lease ID and the instant it is due (expiry, or next checkpoint). The heap orders by time,
 * then insertion sequence. Go's container/heap leaves equal times in structural order; with a total order
 * every correct heap pops the same sequence, which keeps runs reproducible. The notifier holds one entry
 * per lease, so there the tie-break is the order in which leases first got an entry; the checkpoint heap
 * keeps duplicates, ordered the same way. (Real etcd practically never sees two expiries on the same
 * nanosecond.)
 */
export interface LeaseWithTime extends HeapItem {
  readonly id: LeaseID;
}

/** etcd's LeaseQueue: a min-heap whose entries know their index, so one can be re-keyed in place. */
export class LeaseQueue extends TimeHeap<LeaseWithTime> {
  push1(id: LeaseID, time: Micros): LeaseWithTime {
    const e: LeaseWithTime = { id, time, seq: 0, index: -1 };
    this.push(e);
    return e;
  }
}

/**
 * etcd's LeaseExpiredNotifier: at most one queue entry per lease ID, updated in place. Entries are never
 * removed on revoke; a stale one is dropped when it reaches the root (lazy deletion).
 */
export class LeaseExpiredNotifier {
  private readonly m = new LeaseIdMap<LeaseWithTime>();
  private readonly queue = new LeaseQueue();

  registerOrUpdate(id: LeaseID, time: Micros): void {
    const old = this.m.get(id);
    if (old !== undefined) {
      old.time = time;
      this.queue.fix(old);
    } else {
      this.m.set(id, this.queue.push1(id, time));
    }
  }

  /** Re-keys an entry this notifier holds (the root, when expireExists re-arms it) without a lookup. */
  update(e: LeaseWithTime, time: Micros): void {
    e.time = time;
    this.queue.fix(e);
  }

  /** Pops the root and forgets its ID. */
  unregister(): LeaseWithTime | undefined {
    const e = this.queue.pop();
    if (e !== undefined) this.m.delete(e.id);
    return e;
  }

  poll(): LeaseWithTime | undefined {
    return this.queue.peek();
  }

  len(): number {
    return this.m.size;
  }

  init(): void {
    this.queue.init();
  }

  /** Entries in heap-array order, for inspection by tests and monitors. */
  entries(): readonly LeaseWithTime[] {
    return this.queue.items;
  }
}
