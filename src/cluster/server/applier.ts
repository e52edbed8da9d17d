import { ErrLeaseNotFound, LeaseError } from '../../lessor/errors.js';
import type { Lessor } from '../../lessor/lessor.js';
import type { KeyValue, MvccStore } from '../mvcc/index.js';
import type { Compare, OpResponse, RangeBody, RangeRequest, TxnOp } from './api.js';
import type { AnyServerError } from './errors.js';
import type { RaftRequest } from './raft-request.js';

export type ApplyValue =
  | { readonly op: 'LeaseGrant'; readonly id: bigint; readonly ttl: number }
  | { readonly op: 'LeaseRevoke' }
  | { readonly op: 'LeaseCheckpoint' }
  | { readonly op: 'Put'; readonly prevLease: bigint }
  | { readonly op: 'DeleteRange'; readonly deleted: number }
  | { readonly op: 'Txn'; readonly succeeded: boolean; readonly responses: readonly OpResponse[] };

/** `revision` is the store's revision right after this request applied: its response header revision. */
export type ApplyResult =
  | { readonly ok: true; readonly value: ApplyValue; readonly revision: number }
  | { readonly ok: false; readonly err: AnyServerError };

const fail = (err: AnyServerError): { readonly ok: false; readonly err: AnyServerError } => ({ ok: false, err });

/**
 * applierV3backend: applies one committed request to this member's lessor and keyspace. It runs on every
 * member in log order, so it must be a pure function of (state, request).
 */
export function applyRequest(req: RaftRequest, lessor: Lessor, store: MvccStore): ApplyResult {
  const value = applyValue(req, lessor, store);
  return 'err' in value ? value : { ok: true, value, revision: store.currentRevision };
}

function applyValue(
  req: RaftRequest,
  lessor: Lessor,
  store: MvccStore,
): ApplyValue | { readonly ok: false; readonly err: AnyServerError } {
  try {
    switch (req.type) {
      case 'LeaseGrant': {
        const l = lessor.grant(req.id, req.ttl);
        return { op: 'LeaseGrant', id: l.id, ttl: l.ttl };
      }
      case 'LeaseRevoke':
        lessor.revoke(req.id);
        return { op: 'LeaseRevoke' };
      case 'LeaseCheckpoint':
        for (const c of req.checkpoints) lessor.checkpoint(c.id, c.remainingTTL);
        return { op: 'LeaseCheckpoint' };
      case 'Put': {
        const prevLease = store.range(req.key)?.lease ?? 0n;
        const r = store.put(req.key, req.value, req.lease);
        return r.ok ? { op: 'Put', prevLease } : fail(ErrLeaseNotFound);
      }
      case 'DeleteRange':
        return { op: 'DeleteRange', deleted: store.deleteRange(req.key).deleted };
      case 'Txn':
        return applyTxn(req.compare, req.success, req.failure, lessor, store);
    }
  } catch (e) {
    // Lessor errors are answers (ErrLeaseExists, ErrLeaseNotFound, ...); anything else is a model bug.
    if (e instanceof LeaseError) return fail(e);
    throw e;
  }
}

function applyTxn(
  compare: readonly Compare[],
  success: readonly TxnOp[],
  failure: readonly TxnOp[],
  lessor: Lessor,
  store: MvccStore,
): ApplyValue | { readonly ok: false; readonly err: AnyServerError } {
  const succeeded = compare.every((c) => {
    if (c.target !== 'CREATE' || c.result !== 'EQUAL' || c.rangeEnd !== undefined)
      throw new Error('applier: only single-key CREATE = compares are modelled so far');
    return (store.range(c.key)?.createRevision ?? 0) === (c.createRevision ?? 0);
  });
  const ops = succeeded ? success : failure;
  // etcd checks every Put's lease before running any operation of the Txn.
  for (const op of ops)
    if (op.op === 'Put' && op.lease !== 0n && lessor.lookup(op.lease) === undefined) return fail(ErrLeaseNotFound);
  const writes = ops.some((op) => op.op !== 'Range');
  const txn = writes ? store.txnWrite() : undefined;
  const responses: OpResponse[] = [];
  for (const op of ops) {
    if (op.op === 'Txn') throw new Error('applier: nested Txn is not modelled so far');
    if (op.op === 'Range') responses.push({ op: 'Range', revision: 0, ...rangeBody(rangeKvs(op, store)) });
    else if (op.op === 'Put') {
      const r = txn!.put(op.key, op.value, op.lease);
      responses.push({ op: 'Put', revision: r.ok ? r.revision : store.currentRevision });
    } else responses.push({ op: 'DeleteRange', revision: 0, deleted: txn!.deleteRange(op.key).deleted });
  }
  txn?.end();
  return { op: 'Txn', succeeded, responses };
}

/** Serves a Range from this member's store. */
export function rangeKvs(r: RangeRequest, store: MvccStore): KeyValue[] {
  if (r.prefix !== true) {
    const kv = store.range(r.key);
    return kv === undefined ? [] : [kv];
  }
  if (r.firstCreated === true) {
    const kv = store.firstCreated(r.key);
    return kv === undefined ? [] : [kv];
  }
  if (r.lastCreatedAtMost !== undefined) {
    const kv = store.lastCreatedBefore(r.key, r.lastCreatedAtMost + 1);
    return kv === undefined ? [] : [kv];
  }
  return store.range(r.key, { prefix: true });
}

export function rangeBody(kvs: KeyValue[]): RangeBody {
  return { kvs, more: false, count: kvs.length };
}
