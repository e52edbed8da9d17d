import { compareBucketOrder, LeaseIdMap, leaseKey, type LeaseID, type LeaseKey } from './lease-id.js';

/** One record of etcd's bolt bucket "lease" (leasepb.Lease): what survives a restart. */
export interface LeaseRecord {
  readonly id: LeaseID;
  readonly ttl: number;
  readonly remainingTTL: number;
}

/**
 * The persisted lease bucket of one member's backend. It outlives a lessor: a restarted member builds a
 * new lessor on the same bucket. `expiry` and attached keys are never stored here, as in etcd.
 */
export class LeaseBucket {
  private readonly records = new LeaseIdMap<LeaseRecord>();

  /** `key` is the lease's own (the lessor keeps it), else made here. */
  put(r: LeaseRecord, key: LeaseKey = leaseKey(r.id)): void {
    this.records.setAt(key, r);
  }

  delete(id: LeaseID, key: LeaseKey = leaseKey(id)): void {
    this.records.deleteAt(key);
  }

  get(id: LeaseID): LeaseRecord | undefined {
    return this.records.get(id);
  }

  get size(): number {
    return this.records.size;
  }

  /** Every record in the bucket's key order (big-endian uint64 of the ID), as bolt iterates it. */
  all(): LeaseRecord[] {
    return [...this.records.values()].sort((a, b) => compareBucketOrder(a.id, b.id));
  }
}
