import { InvalidArgumentError } from './errors.js';

/** etcd's LeaseID: any int64, negative ones included. 0 means "no lease". */
export type LeaseID = bigint;

export const NoLease: LeaseID = 0n;

export function checkLeaseId(id: LeaseID, what = 'lease ID'): void {
  if (typeof id !== 'bigint') throw new InvalidArgumentError(`${what} must be a bigint, got ${typeof id}`);
  if (BigInt.asIntN(64, id) !== id) throw new InvalidArgumentError(`${what} ${id} is outside int64`);
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
 * A Map keyed by LeaseID. V8 hashes a bigint key from its digits on every lookup; IDs inside the safe
 * integer range are stored under their number value instead, which is about twice as fast. Larger IDs
 * (etcd allocates 63-bit ones) fall back to bigint keys. Iteration visits small IDs
 * first; callers that need an order sort explicitly.
 */
export interface ReadonlyLeaseIdMap<V> {
  readonly size: number;
  get(id: LeaseID): V | undefined;
  has(id: LeaseID): boolean;
  keys(): IterableIterator<LeaseID>;
  values(): IterableIterator<V>;
}

export class LeaseIdMap<V> implements ReadonlyLeaseIdMap<V> {
  private readonly small = new Map<number, V>();
  private readonly big = new Map<bigint, V>();

  get size(): number {
    return this.small.size + this.big.size;
  }

  get(id: LeaseID): V | undefined {
    const n = Number(id);
    return Number.isSafeInteger(n) ? this.small.get(n) : this.big.get(id);
  }

  has(id: LeaseID): boolean {
    const n = Number(id);
    return Number.isSafeInteger(n) ? this.small.has(n) : this.big.has(id);
  }

  set(id: LeaseID, v: V): void {
    const n = Number(id);
    if (Number.isSafeInteger(n)) this.small.set(n, v);
    else this.big.set(id, v);
  }

  delete(id: LeaseID): boolean {
    const n = Number(id);
    return Number.isSafeInteger(n) ? this.small.delete(n) : this.big.delete(id);
  }

  *keys(): IterableIterator<LeaseID> {
    for (const n of this.small.keys()) yield BigInt(n);
    yield* this.big.keys();
  }

  *values(): IterableIterator<V> {
    yield* this.small.values();
    yield* this.big.values();
  }
}
