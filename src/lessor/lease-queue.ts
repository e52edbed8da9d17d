import { TimeHeap, type HeapItem } from '../clock/time-heap.js';
import type { Micros } from '../clock/time.js';
import type { LeaseID } from './lease-id.js';
import type { LeaseSlot, LeaseTable } from './lease-table.js';
import { SlotHeap } from './slot-heap.js';

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
  push1(id: LeaseID, time: Micros): void {
    this.push({ id, time, seq: 0, index: -1 });
  }
}

/**
 * etcd's LeaseExpiredNotifier: at most one queue entry per lease ID, updated in place. The entries are
 * the IDs' slots in the lessor's lease table, so an entry knows its lease without a lookup. Entries are
 * never removed on revoke; a stale one is dropped when it reaches the root (lazy deletion).
 */
export class LeaseExpiredNotifier {
  private queue = new SlotHeap();

  constructor(private readonly table: LeaseTable) {}

  /** Arms the slot's entry at `time`: pushed if the notifier holds none for it, else re-keyed in place. */
  registerOrUpdate(s: LeaseSlot, time: Micros): void {
    s.time = time;
    if (s.index >= 0) this.queue.fix(s);
    else this.queue.push(s);
  }

  /** Pops the root and forgets its ID. */
  unregister(): LeaseSlot | undefined {
    const e = this.queue.pop();
    if (e !== undefined) this.table.released(e);
    return e;
  }

  poll(): LeaseSlot | undefined {
    return this.queue.peek();
  }

  len(): number {
    return this.queue.length;
  }

  init(): void {
    this.queue.init();
  }

  /** Drops every entry, as a fresh notifier would start (Demote builds a new one in etcd). */
  clear(): void {
    const old = this.queue;
    this.queue = new SlotHeap();
    for (const s of old.items) {
      s.index = -1;
      this.table.released(s);
    }
  }

  /** Entries in heap-array order, for inspection by tests and monitors. */
  entries(): readonly LeaseSlot[] {
    return this.queue.items;
  }
}
