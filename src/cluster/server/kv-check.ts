import type { DeleteRangeRequest, PutRequest, RangeRequest, RequestOp, TxnRequest } from './api.js';
import {
  ErrDuplicateKey,
  ErrEmptyKey,
  ErrLeaseProvided,
  ErrTooManyOps,
  ErrValueProvided,
  type ServerError,
} from './errors.js';

/** etcd's embed.DefaultMaxTxnOps (--max-txn-ops): most compares, or ops per branch, in one Txn. */
export const DEFAULT_MAX_TXN_OPS = 128;

/**
 * The checks etcd's gRPC KV service makes before a request reaches the server (v3rpc/key.go): the
 * error the receiving member answers with at once, or undefined when the request may go on.
 */
export function checkRangeRequest(r: RangeRequest): ServerError | undefined {
  return r.key === '' ? ErrEmptyKey : undefined;
}

export function checkPutRequest(r: PutRequest): ServerError | undefined {
  if (r.key === '') return ErrEmptyKey;
  if (r.ignoreValue === true && r.value !== '') return ErrValueProvided;
  if (r.ignoreLease === true && r.lease !== 0n) return ErrLeaseProvided;
  return undefined;
}

export function checkDeleteRequest(r: DeleteRangeRequest): ServerError | undefined {
  return r.key === '' ? ErrEmptyKey : undefined;
}

/** checkTxnRequest, then checkIntervals on each branch (the duplicate-key rule). */
export function checkTxn(r: TxnRequest, maxTxnOps = DEFAULT_MAX_TXN_OPS): ServerError | undefined {
  return checkTxnRequest(r, maxTxnOps) ?? intervalError(r.success) ?? intervalError(r.failure);
}

function checkTxnRequest(r: TxnRequest, maxTxnOps: number): ServerError | undefined {
  const opc = Math.max(r.compare.length, r.success.length, r.failure.length);
  if (opc > maxTxnOps) return ErrTooManyOps;
  if (r.compare.some((c) => c.key === '')) return ErrEmptyKey;
  for (const u of [...r.success, ...r.failure]) {
    // A nested Txn gets what its parent's widest list left over, as etcd passes maxTxnOps - opc down.
    const err = checkRequestOp(u, maxTxnOps - opc);
    if (err !== undefined) return err;
  }
  return undefined;
}

function checkRequestOp(u: RequestOp, maxTxnOps: number): ServerError | undefined {
  switch (u.op) {
    case 'Range':
      return checkRangeRequest(u);
    case 'Put':
      return checkPutRequest(u);
    case 'DeleteRange':
      return checkDeleteRequest(u);
    case 'Txn':
      return checkTxnRequest(u, maxTxnOps);
  }
}

/** A deleted interval as etcd's adt.StringAffineInterval: `end` '' is unbounded, undefined a point. */
interface Interval {
  readonly key: string;
  readonly end: string | undefined;
}

/** Whether the point `k` lies in one of the intervals (a half-open [key, end), or the key itself). */
function intersects(dels: readonly Interval[], k: string): boolean {
  return dels.some((d) => (d.end === undefined ? d.key === k : k >= d.key && (d.end === '' || k < d.end)));
}

function intervalError(reqs: readonly RequestOp[]): ServerError | undefined {
  return checkIntervals(reqs) === undefined ? ErrDuplicateKey : undefined;
}

interface Written {
  readonly puts: Set<string>;
  readonly dels: Interval[];
}

/**
 * etcd's checkIntervals (undefined for a duplicate): no key may be put twice, or put and deleted, along
 * one path through the Txn (the then and else branches of one nested Txn may put the same key). Range
 * ends are taken as the request gives them, so a '\0' (from-key) delete is the interval [key, "\0"),
 * as in etcd.
 */
function checkIntervals(reqs: readonly RequestOp[]): Written | undefined {
  const dels: Interval[] = [];
  for (const r of reqs) {
    if (r.op === 'DeleteRange')
      dels.push({ key: r.key, end: r.rangeEnd === undefined || r.rangeEnd === '' ? undefined : r.rangeEnd });
  }
  const puts = new Set<string>();
  for (const r of reqs) {
    if (r.op !== 'Txn') continue;
    const then = checkIntervals(r.success);
    const otherwise = then && checkIntervals(r.failure);
    if (then === undefined || otherwise === undefined) return undefined;
    for (const k of then.puts) {
      if (puts.has(k) || intersects(dels, k)) return undefined;
      puts.add(k);
    }
    for (const k of otherwise.puts) {
      if (puts.has(k) && !then.puts.has(k)) return undefined;
      if (intersects(dels, k)) return undefined;
      puts.add(k);
    }
    // A later sibling's puts are checked against this child's deletes too.
    dels.push(...then.dels, ...otherwise.dels);
  }
  for (const r of reqs) {
    if (r.op !== 'Put') continue;
    if (puts.has(r.key) || intersects(dels, r.key)) return undefined;
    puts.add(r.key);
  }
  return { puts, dels };
}
