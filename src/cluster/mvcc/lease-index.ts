/**
 * What the store needs from the lessor of its member: the narrow slice of etcd's `lease.Lessor` that
 * `kvstore_txn.go` and `kvstore.go` call. The lessor lives in a lower layer and satisfies this
 * structurally.
 */
export interface LeaseIndex {
  /** Whether the lease exists (expired but not yet revoked counts as existing). */
  lookup(id: bigint): boolean;
  /** The lease the key is attached to in the lessor's item map, NoLease when none. */
  getLease(key: string): bigint;
  /** Throws when the lease does not exist; a store Put treats that as a bug (etcd panics). */
  attach(id: bigint, keys: string[]): void;
  /** Throws when the lease does not exist; the store logs that and carries on (etcd does). */
  detach(id: bigint, keys: string[]): void;
}
