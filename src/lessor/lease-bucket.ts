import { compareBucketOrder, LeaseIdMap, type LeaseID } from './lease-id.js';

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

  put(r: LeaseRecord): void {
    this.records.set(r.id, r);
  }

  delete(id: LeaseID): void {
    this.records.delete(id);
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
