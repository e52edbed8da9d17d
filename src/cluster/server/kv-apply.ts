import { ErrLeaseNotFound } from '../../lessor/errors.js';
import type { Lessor } from '../../lessor/lessor.js';
import { gteRangeEnd, type KeyValue, type MvccStore, type TxnWrite } from '../mvcc/index.js';
import type {
  Compare,
  DeleteRangeBody,
  DeleteRangeRequest,
  PutBody,
  PutRequest,
  RangeRequest,
  RequestOp,
  ResponseOp,
  TxnBody,
  TxnRequest,
} from './api.js';
import { ErrKeyNotFound } from './errors.js';
import { applyRange, compareStrings, type RangeReader } from './kv-range.js';

/** A write's answer and the revision its (possibly nested) header carries. */
type Answer<T> = T & { readonly revision: number };

/**
 * applierV3backend's KV half (etcdserver/apply.go): Put, DeleteRange and Txn on one member's store.
 * Errors are thrown as etcd returns them (ErrLeaseNotFound, ErrKeyNotFound, ErrCompacted, ErrFutureRev);
 * the applier turns them into answers.
 */
export class KvApplier {
  constructor(
    private readonly store: MvccStore,
    private readonly lessor: Lessor,
  ) {}

  /** A Put outside a Txn: the lease is checked first, then the write runs in its own transaction. */
  put(p: PutRequest): Answer<PutBody> {
    if (p.lease !== 0n && this.lessor.lookup(p.lease) === undefined) throw ErrLeaseNotFound;
    const prevLease = this.store.range(p.key)?.lease ?? 0n;
    const txn = this.store.txnWrite();
    try {
      return { ...this.txnPut(txn, p), prevLease };
    } finally {
      txn.end();
    }
  }

  deleteRange(d: DeleteRangeRequest): Answer<DeleteRangeBody> {
    const txn = this.store.txnWrite();
    try {
      return this.txnDelete(txn, d);
    } finally {
      txn.end();
    }
  }

  /** A Range outside a Txn, at the store's current revision unless it names one. */
  range(r: RangeRequest): ReturnType<typeof applyRange> {
    return applyRange((key, end, opts) => this.store.rangeKeys(key, end, opts), r);
  }

  /**
   * applierV3backend.Txn: the compares decide the path through every nested Txn on the state before
   * the Txn; the chosen ops' Puts (if any op writes) and Ranges are checked up front; then the ops run in
   * one write transaction (or a read, when all are Ranges). The header revision is the store's after.
   */
  txn(rt: TxnRequest): Answer<TxnBody> {
    const path = compareToPath(this.store, rt);
    const isWrite = !isTxnReadonly(rt);
    if (isWrite) checkRequests(rt, path, (op) => this.checkPut(op));
    checkRequests(rt, path, (op) => this.checkRange(op));
    if (!isWrite) {
      const read: Ops = { read: (key, end, opts) => this.store.rangeKeys(key, end, opts) };
      const body = this.applyTxn(read, rt, path).body;
      return { ...body, revision: this.store.currentRevision };
    }
    const txn = this.store.txnWrite();
    let body: TxnBody;
    try {
      body = this.applyTxn({ read: txn.range, write: txn }, rt, path).body;
    } finally {
      txn.end();
    }
    return { ...body, revision: this.store.currentRevision };
  }

  private txnPut(txn: TxnWrite, p: PutRequest): Answer<Omit<PutBody, 'prevLease'>> {
    let value = p.value;
    let lease = p.lease;
    let prev: KeyValue | undefined;
    if (p.ignoreValue === true || p.ignoreLease === true || p.prevKv === true) {
      prev = txn.range(p.key, undefined, {}).kvs[0];
      if ((p.ignoreValue === true || p.ignoreLease === true) && prev === undefined) throw ErrKeyNotFound;
      if (p.ignoreValue === true) value = prev!.value;
      if (p.ignoreLease === true) lease = prev!.lease;
    }
    const r = txn.put(p.key, value, lease);
    // The applier checked the lease (etcd looks it up before the write), so a refusal is a model bug.
    if (!r.ok) throw new Error(`applier: put of ${p.key} refused after its lease was checked`);
    return { revision: r.revision, ...(p.prevKv === true && prev !== undefined ? { prevKv: prev } : {}) };
  }

  private txnDelete(txn: TxnWrite, d: DeleteRangeRequest): Answer<DeleteRangeBody> {
    const end = gteRangeEnd(d.rangeEnd);
    const prevKvs = d.prevKv === true ? txn.range(d.key, end, {}).kvs : undefined;
    const r = txn.deleteRange(d.key, end);
    return { deleted: r.deleted, revision: r.revision, ...(prevKvs !== undefined ? { prevKvs } : {}) };
  }

  /** Runs the ops of the branch `path` chose; returns the body and how many nested Txns it went through. */
  private applyTxn(ops: Ops, rt: TxnRequest, path: readonly boolean[]): { body: TxnBody; txns: number } {
    const succeeded = path[0]!;
    let rest = path.slice(1);
    let txns = 0;
    const responses: ResponseOp[] = [];
    for (const op of succeeded ? rt.success : rt.failure) {
      switch (op.op) {
        case 'Range':
          responses.push({ op: 'Range', ...applyRange(ops.read, op) });
          break;
        case 'Put':
          responses.push({ op: 'Put', ...this.txnPut(ops.write!, op) });
          break;
        case 'DeleteRange':
          responses.push({ op: 'DeleteRange', ...this.txnDelete(ops.write!, op) });
          break;
        case 'Txn': {
          const nested = this.applyTxn(ops, op, rest);
          // A nested Txn's header is never filled in: its revision stays 0.
          responses.push({ op: 'Txn', ...nested.body, revision: 0 });
          txns += nested.txns + 1;
          rest = rest.slice(nested.txns + 1);
          break;
        }
      }
    }
    return { body: { succeeded, responses }, txns };
  }

  /** checkRequestPut: ignore_value/ignore_lease need the key, a lease must exist. */
  private checkPut(op: RequestOp): void {
    if (op.op !== 'Put') return;
    if ((op.ignoreValue === true || op.ignoreLease === true) && this.store.range(op.key) === undefined)
      throw ErrKeyNotFound;
    if (op.lease !== 0n && this.lessor.lookup(op.lease) === undefined) throw ErrLeaseNotFound;
  }

  /** checkRequestRange: a Range's revision must be neither future nor compacted. */
  private checkRange(op: RequestOp): void {
    if (op.op !== 'Range' || op.revision === undefined || op.revision === 0) return;
    this.store.rangeKeys(op.key, undefined, { rev: op.revision, count: true });
  }
}

/** What a Txn's ops run on: reads always, writes only in a write Txn. */
interface Ops {
  readonly read: RangeReader;
  readonly write?: TxnWrite;
}

/** isTxnReadonly (etcdserver/v3_server.go): every op of both branches is a Range (a nested Txn is not). */
export function isTxnReadonly(rt: TxnRequest): boolean {
  return [...rt.success, ...rt.failure].every((op) => op.op === 'Range');
}

/** compareToPath: each Txn's compare outcome, depth first along the branches taken. */
function compareToPath(store: MvccStore, rt: TxnRequest): boolean[] {
  const ok = rt.compare.every((c) => applyCompare(store, c));
  const path = [ok];
  for (const op of ok ? rt.success : rt.failure) if (op.op === 'Txn') path.push(...compareToPath(store, op));
  return path;
}

/** checkRequests: runs `f` on every non-Txn op along the path. */
function checkRequests(rt: TxnRequest, path: readonly boolean[], f: (op: RequestOp) => void): number {
  let rest = path.slice(1);
  let txns = 0;
  for (const op of path[0]! ? rt.success : rt.failure) {
    if (op.op === 'Txn') {
      const n = checkRequests(op, rest, f);
      txns += n + 1;
      rest = rest.slice(n + 1);
    } else f(op);
  }
  return txns;
}

/**
 * applyCompare: every key in the compare's range must satisfy it. No key at all compares a zero
 * KeyValue (version, revisions and lease 0), except that a VALUE compare on missing keys always fails.
 */
export function applyCompare(store: MvccStore, c: Compare): boolean {
  const kvs = store.rangeKeys(c.key, gteRangeEnd(c.rangeEnd)).kvs;
  if (kvs.length === 0) return c.target === 'VALUE' ? false : compareKV(c, ZERO_KV);
  return kvs.every((kv) => compareKV(c, kv));
}

const ZERO_KV: KeyValue = { key: '', value: '', createRevision: 0, modRevision: 0, version: 0, lease: 0n };

/** compareKV: the key's field against the compare's operand (absent: zero), by the compare's result. */
export function compareKV(c: Compare, kv: KeyValue): boolean {
  let result: number;
  switch (c.target) {
    case 'VALUE':
      result = compareStrings(kv.value, c.value ?? '');
      break;
    case 'CREATE':
      result = Math.sign(kv.createRevision - (c.createRevision ?? 0));
      break;
    case 'MOD':
      result = Math.sign(kv.modRevision - (c.modRevision ?? 0));
      break;
    case 'VERSION':
      result = Math.sign(kv.version - (c.version ?? 0));
      break;
    case 'LEASE': {
      const l = c.lease ?? 0n;
      result = kv.lease < l ? -1 : kv.lease > l ? 1 : 0;
      break;
    }
  }
  switch (c.result) {
    case 'EQUAL':
      return result === 0;
    case 'NOT_EQUAL':
      return result !== 0;
    case 'GREATER':
      return result > 0;
    case 'LESS':
      return result < 0;
  }
}
