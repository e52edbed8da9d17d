import type { RangeKeysOptions, RangeResult } from './store.js';

/** A Put that went through, at the revision its transaction commits at. */
export interface PutOk {
  readonly ok: true;
  readonly revision: number;
}

/** A Put refused before writing anything: its nonzero lease is unknown (etcd's ErrLeaseNotFound). */
export interface PutFailed {
  readonly ok: false;
  readonly error: 'lease-not-found';
}

export type PutResult = PutOk | PutFailed;

/**
 * `deleted` counts the keys deleted (0 or 1 for a single key). `revision` is the store revision as the transaction
 * stands after this operation: the revision it commits at once anything changed, else the current one.
 */
export interface DeleteResult {
  readonly deleted: number;
  readonly revision: number;
}

/**
 * A write transaction (etcd's TxnWrite). Only one may be open per store. Every change shares one main
 * revision, sub-revisions counting from 0; `end` commits and returns the revision after it, bumped only
 * if something changed. Reads on the store between operations see the transaction's own writes, but
 * `currentRevision` moves only at `end`. A lessor's Revoke deletes its keys in one of these (it satisfies
 * the lessor's TxnDelete). etcd rejects a whole Txn up front if any Put names an unknown lease; a caller
 * modelling a multi-op Txn should check its leases before the first operation, since a refused `put` here
 * refuses only itself.
 */
export interface TxnWrite {
  /** One key, or with `end` every live key in the range (see KeyRange), in key order. */
  deleteRange(key: string, end?: string): DeleteResult;
  /** A read that sees this transaction's writes (see MvccStore.rangeKeys). */
  range(key: string, end: string | undefined, opts?: RangeKeysOptions): RangeResult;
  put(key: string, value: string, leaseId?: bigint): PutResult;
  end(): number;
}
