import type { HeapItem } from '../clock/time-heap.js';
import type { Micros } from '../clock/time.js';
import {
  isSafeLeaseId,
  LeaseIdMap,
  leaseKey,
  type LeaseID,
  type LeaseKey,
  type ReadonlyLeaseIdMap,
} from './lease-id.js';
import type { Lease } from './lease.js';

/**
 * What the lessor keeps under one lease ID: the lease while it is granted (etcd's leaseMap entry) and
 * the ID's expiry-notifier entry (etcd's LeaseWithTime in leaseExpiredNotifier.m). Holding both in one
 * map entry saves a lookup per grant, expiry and revoke. A slot outlives its lease while the notifier
 * still holds its entry: etcd drops that entry lazily, when it reaches the root.
 */
export class LeaseSlot implements HeapItem {
  lease: Lease | undefined = undefined;
  /** When the notifier's entry is due; meaningful while `index >= 0`. */
  time: Micros = 0;
  seq = 0;
  /** Position in the notifier's heap; -1 while the notifier holds no entry for this ID. */
  index = -1;

  constructor(
    readonly id: LeaseID,
    readonly key: LeaseKey,
  ) {}
}

/**
 * The slots by ID key. Invariant: a slot is in the map exactly while it holds a lease or a notifier entry.
 * As a ReadonlyLeaseIdMap it is etcd's leaseMap: the granted leases, safe-integer IDs first, each kind in
 * the order the leases were put (the order the lessor's former two-map lease map iterated in).
 */
export class LeaseTable implements ReadonlyLeaseIdMap<Lease> {
  private readonly slots = new LeaseIdMap<LeaseSlot>();
  private leaseCount = 0;

  get size(): number {
    return this.leaseCount;
  }

  slot(id: LeaseID): LeaseSlot | undefined {
    return this.slots.get(id);
  }

  /** `slot` by the key a lease keeps. */
  slotAt(key: LeaseKey): LeaseSlot | undefined {
    return this.slots.getAt(key);
  }

  /** The slot for `id` (whose key is `key`), made (empty) if there is none. */
  slotFor(id: LeaseID, key: LeaseKey = leaseKey(id)): LeaseSlot {
    let s = this.slots.getAt(key);
    if (s === undefined) {
      s = new LeaseSlot(id, key);
      this.slots.setAt(key, s);
    }
    return s;
  }

  get(id: LeaseID): Lease | undefined {
    return this.slots.get(id)?.lease;
  }

  has(id: LeaseID): boolean {
    return this.get(id) !== undefined;
  }

  /** Puts `l` into its empty slot `s`. */
  put(s: LeaseSlot, l: Lease): void {
    if (s.index >= 0) {
      // A slot kept only for its notifier entry: moved to the end, where a newly put lease iterates.
      this.slots.deleteAt(s.key);
      this.slots.setAt(s.key, s);
    }
    s.lease = l;
    this.leaseCount++;
  }

  /** Takes the lease out of `s`; the slot goes too unless the notifier holds its entry. */
  remove(s: LeaseSlot): void {
    if (s.lease === undefined) return;
    s.lease = undefined;
    this.leaseCount--;
    if (s.index < 0) this.slots.deleteAt(s.key);
  }

  /** Called once the notifier has let go of `s`: the slot goes unless it holds a lease. */
  released(s: LeaseSlot): void {
    if (s.lease === undefined) this.slots.deleteAt(s.key);
  }

  /** Every lease gone (recover rebuilds the map); slots the notifier holds stay, empty. */
  clearLeases(): void {
    for (const s of this.slots.values()) {
      s.lease = undefined;
      if (s.index < 0) this.slots.deleteAt(s.key);
    }
    this.leaseCount = 0;
  }

  *keys(): IterableIterator<LeaseID> {
    for (const l of this.values()) yield l.id;
  }

  *values(): IterableIterator<Lease> {
    for (const s of this.slots.values()) if (s.lease !== undefined && isSafeLeaseId(s.id)) yield s.lease;
    for (const s of this.slots.values()) if (s.lease !== undefined && !isSafeLeaseId(s.id)) yield s.lease;
  }
}
