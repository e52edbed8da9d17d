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
 * A lease ID as a LeaseIdMap keys it. V8 hashes a bigint key from its digits on every lookup; an ID inside
 * the safe integer range is keyed by its number value instead, which is exact there (every ID the model
 * allocates is: see IdGenerator). Larger IDs (a scenario may grant any int64) keep the bigint: a Map tells
 * 5 from 5n, so the two kinds of key never collide.
 */
type IdKey = number | bigint;

function idKey(id: LeaseID): IdKey {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}

declare const opaque: unique symbol;

/**
 * An ID as a LeaseIdMap keys it, opaque to everyone else. Only the lessor's own records keep one (a lease,
 * its slot), computed once when the lease is made: the lessor storm measured the conversion on each later
 * map operation at 2 to 5% of its CPU time. It never travels beside an ID on an interface.
 */
export type LeaseKey = IdKey & { readonly [opaque]: true };

export function leaseKey(id: LeaseID): LeaseKey {
  return idKey(id) as LeaseKey;
}

/** Whether `id` is keyed by its number value (inside the safe integer range). */
export function isSafeLeaseId(id: LeaseID): boolean {
  return typeof idKey(id) === 'number';
}

/** A read-only map keyed by LeaseID, as inspect() hands the lease map out. */
export interface ReadonlyLeaseIdMap<V> {
  readonly size: number;
  get(id: LeaseID): V | undefined;
  has(id: LeaseID): boolean;
  keys(): IterableIterator<LeaseID>;
  values(): IterableIterator<V>;
}

/**
 * A map keyed by LeaseID that owns the key conversion (`idKey`), so callers hand it IDs as etcd does and
 * no key travels beside an ID. Iterates in insertion order, as a Map does.
 */
export class LeaseIdMap<V> implements ReadonlyLeaseIdMap<V> {
  private readonly m = new Map<IdKey, V>();

  get size(): number {
    return this.m.size;
  }

  get(id: LeaseID): V | undefined {
    return this.m.get(idKey(id));
  }

  /** `get` by a key the caller kept. */
  getAt(k: LeaseKey): V | undefined {
    return this.m.get(k);
  }

  has(id: LeaseID): boolean {
    return this.m.has(idKey(id));
  }

  set(id: LeaseID, v: V): this {
    this.m.set(idKey(id), v);
    return this;
  }

  /** `set` by a key the caller kept. */
  setAt(k: LeaseKey, v: V): this {
    this.m.set(k, v);
    return this;
  }

  delete(id: LeaseID): boolean {
    return this.m.delete(idKey(id));
  }

  /** `delete` by a key the caller kept. */
  deleteAt(k: LeaseKey): boolean {
    return this.m.delete(k);
  }

  clear(): void {
    this.m.clear();
  }

  *keys(): IterableIterator<LeaseID> {
    for (const k of this.m.keys()) yield BigInt(k);
  }

  values(): IterableIterator<V> {
    return this.m.values();
  }
}
