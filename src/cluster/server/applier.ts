import { LeaseError } from '../../lessor/errors.js';
import type { Lessor } from '../../lessor/lessor.js';
import { MvccError, type MvccStore } from '../mvcc/index.js';
import type { DeleteRangeBody, PutBody, TxnBody } from './api.js';
import { ServerError, type AnyServerError } from './errors.js';
import { KvApplier } from './kv-apply.js';
import type { RaftRequest } from './raft-request.js';

export type ApplyValue =
  | { readonly op: 'LeaseGrant'; readonly id: bigint; readonly ttl: number }
  | { readonly op: 'LeaseRevoke' }
  | { readonly op: 'LeaseCheckpoint' }
  | ({ readonly op: 'Put' } & PutBody)
  | ({ readonly op: 'DeleteRange' } & DeleteRangeBody)
  | ({ readonly op: 'Txn' } & TxnBody)
  | { readonly op: 'Compaction' };

/** `revision` is the store's revision right after this request applied: its response header revision. */
export type ApplyResult =
  | { readonly ok: true; readonly value: ApplyValue; readonly revision: number }
  | { readonly ok: false; readonly err: AnyServerError };

/**
 * applierV3backend: applies one committed request to this member's lessor and keyspace. It runs on every
 * member in log order, so it must be a pure function of (state, request).
 */
export function applyRequest(req: RaftRequest, lessor: Lessor, store: MvccStore): ApplyResult {
  try {
    const value = applyValue(req, lessor, store);
    return { ok: true, value, revision: store.currentRevision };
  } catch (e) {
    // Lessor, server and mvcc errors are answers (ErrLeaseNotFound, ErrKeyNotFound, ErrCompacted, ...);
    // anything else is a model bug.
    if (e instanceof LeaseError || e instanceof ServerError || e instanceof MvccError) return { ok: false, err: e };
    throw e;
  }
}

function applyValue(req: RaftRequest, lessor: Lessor, store: MvccStore): ApplyValue {
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
      const { revision: _, ...body } = new KvApplier(store, lessor).put(req.put);
      return { op: 'Put', ...body };
    }
    case 'DeleteRange': {
      const { revision: _, ...body } = new KvApplier(store, lessor).deleteRange(req.deleteRange);
      return { op: 'DeleteRange', ...body };
    }
    case 'Txn': {
      const { revision: _, ...body } = new KvApplier(store, lessor).txn(req.txn);
      return { op: 'Txn', ...body };
    }
    case 'Compaction':
      // The index and backend compaction run at once here, so Physical has nothing more to wait for.
      store.compact(req.revision);
      return { op: 'Compaction' };
  }
}
