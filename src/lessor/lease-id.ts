import { InvalidArgumentError } from './errors.js';

/** etcd's LeaseID: any int64, negative ones included. 0 means "no lease". */
export type LeaseID = bigint;

export const NoLease: LeaseID = 0n;

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

export function checkLeaseId(id: LeaseID, what = 'lease ID'): void {
  if (typeof id !== 'bigint') throw new InvalidArgumentError(`${what} must be a bigint, got ${typeof id}`);
  // Compared, not wrapped with BigInt.asIntN: grant checks every ID, and a comparison allocates nothing.
  if (id < MIN_INT64 || id > MAX_INT64) throw new InvalidArgumentError(`${what} ${id} is outside int64`);
}

/**
 * The order etcd's lease bucket iterates in: big-endian bytes of uint64(ID), so 0…MaxInt64 come before
 * MinInt64…-1.
 */
export function compareBucketOrder(a: LeaseID, b: LeaseID): number {
  const ua = BigInt.asUintN(64, a);
  const ub = BigInt.asUintN(64, b);
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

export const compareIds = (a: LeaseID, b: LeaseID): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A lease ID as the lessor's maps key it. V8 hashes a bigint key from its digits on every lookup; an ID
 * inside the safe integer range is keyed by its number value instead, which is exact there (every ID the
 * model allocates is: see IdGenerator). Larger IDs (a scenario may grant any int64) keep the bigint: a
 * Map tells 5 from 5n, so the two kinds of key never collide. Computed once where an ID enters the lessor.
 */
export type IdKey = number | bigint;

export function idKey(id: LeaseID): IdKey {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}

/** A read-only map keyed by LeaseID, as inspect() hands the lease map out. */
export interface ReadonlyLeaseIdMap<V> {
  readonly size: number;
  get(id: LeaseID): V | undefined;
  has(id: LeaseID): boolean;
  keys(): IterableIterator<LeaseID>;
  values(): IterableIterator<V>;
}
