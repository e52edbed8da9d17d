import { Heap } from 'heap-js';
import type { Micros } from '../clock/time.js';
import { LeaseIdMap, type LeaseID } from './lease-id.js';

/** A heap entry: lease ID and the instant it is due (expiry, or next checkpoint). */
export interface LeaseWithTime {
  readonly id: LeaseID;
  time: Micros;
  /** Current position in the heap, -1 once popped; kept so an entry can be fixed in place. */
  index: number;
  /** Insertion sequence: orders duplicates (the checkpoint heap keeps them) deterministically. */
  readonly seq: number;
}

/**
 * Strict total order: time, then the entry's insertion sequence. Go's container/heap leaves equal times
 * in structural order; with a total order every correct heap pops the same sequence, which keeps runs
 * reproducible. The notifier holds one entry per lease, so there the tie-break is the order in which
 * leases first got an entry. (Real etcd practically never sees two expiries on the same nanosecond.)
 */
const byTimeThenSeq = (a: LeaseWithTime, b: LeaseWithTime): number => a.time - b.time || a.seq - b.seq;
// The same order as a predicate, inlined into the sift loops (the hottest code of a revoke storm).
const before = (a: LeaseWithTime, b: LeaseWithTime): boolean => a.time < b.time || (a.time === b.time && a.seq < b.seq);

/**
 * etcd's LeaseQueue: a binary min-heap (heap-js) whose entries know their index, so an entry can be
 * re-keyed in place (container/heap's Fix) instead of being pushed again.
 */
export class LeaseQueue extends Heap<LeaseWithTime> {
  private nextSeq = 0;

  constructor() {
    super(byTimeThenSeq);
  }

  push1(id: LeaseID, time: Micros): LeaseWithTime {
    const e: LeaseWithTime = { id, time, index: -1, seq: this.nextSeq++ };
    this.add(e);
    return e;
  }

  override pop(): LeaseWithTime | undefined {
    const e = super.pop();
    if (e !== undefined) e.index = -1;
    return e;
  }

  /** container/heap.Fix: re-establish order after entry `e` changed its time. */
  fix(e: LeaseWithTime): void {
    const i = e.index;
    this._sortNodeDown(i);
    if (e.index === i) this._sortNodeUp(i);
  }

  /** container/heap.Init over the entries already held (Recover keeps them). */
  reinit(): void {
    this.init();
    this.heapArray.forEach((e, i) => (e.index = i));
  }

  override _sortNodeUp(i: number): void {
    const arr = this.heapArray;
    const v = arr[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pv = arr[p]!;
      if (!before(v, pv)) break;
      arr[i] = pv;
      pv.index = i;
      i = p;
    }
    arr[i] = v;
    v.index = i;
  }

  override _sortNodeDown(i: number): void {
    const arr = this.heapArray;
    const n = arr.length;
    const v = arr[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(arr[c + 1]!, arr[c]!)) c++;
      const cv = arr[c]!;
      if (!before(cv, v)) break;
      arr[i] = cv;
      cv.index = i;
      i = c;
    }
    arr[i] = v;
    v.index = i;
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
    this.queue.reinit();
  }

  /** Entries in heap-array order, for inspection by tests and monitors. */
  entries(): readonly LeaseWithTime[] {
    return this.queue.heapArray;
  }
}
