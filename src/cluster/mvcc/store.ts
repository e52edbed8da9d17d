import type { Micros } from '../../clock/time.js';
import { NoLease } from '../../lessor/lease-id.js';
import { NO_TRACE, formatLeaseId, type Trace } from '../../trace/trace.js';
import { KvBackend } from './backend.js';
import { ErrCompacted, ErrFutureRev } from './errors.js';
import { EventLog } from './event-log.js';
import { KeyHistory } from './key-history.js';
import type { KeyRange } from './key-range.js';
import { KeyTree } from './key-tree.js';
import type { KeyValue, KvRecord } from './kv.js';
import type { LeaseIndex } from './lease-index.js';
import type { DeleteResult, PutResult, TxnWrite } from './txn.js';
import {
  WatcherGroup,
  type CancelWatch,
  type RecordCallback,
  type WatchCallback,
  type WatchOptions,
} from './watcher-group.js';

export interface StoreOptions {
  /** The member this keyspace belongs to: the `member` of its trace events. */
  readonly member: string;
  readonly trace?: Trace;
  /** Virtual time stamped on trace events; defaults to 0 for stores nobody traces. */
  readonly now?: () => Micros;
  /** Most changes kept for watch replay (see EventLog); default unbounded. */
  readonly eventLogCap?: number;
}

export interface RangeOptions {
  readonly prefix: true;
}

/** etcd's mvcc.RangeOptions: `rev` 0 reads the current revision, `limit` 0 is no limit. */
export interface RangeKeysOptions {
  readonly rev?: number;
  readonly limit?: number;
  /** Count only: no key-values in the result. */
  readonly count?: boolean;
}

/** etcd's mvcc.RangeResult: `count` is every key in range before `limit`; `rev` the read's revision. */
export interface RangeResult {
  readonly kvs: readonly KeyValue[];
  readonly count: number;
  readonly rev: number;
}

const LEASE_NOT_FOUND: PutResult = { ok: false, error: 'lease-not-found' };

/** A store on an empty backend (etcd's NewStore on a fresh data directory). */
export function newStore(leases: LeaseIndex, options: StoreOptions): MvccStore {
  return new MvccStore(new KvBackend(), leases, options);
}

/**
 * Rebuilds a store from a backend that survived a crash or came with a snapshot (etcd's
 * `store.restore`, kvstore.go). The lessor must already be recovered: each live key whose latest version
 * names a lease is attached to it, in key order (Go iterates a map here). A lease the lessor no longer
 * has is logged and skipped: the key keeps `lease` in its record, but the lessor's getLease says
 * NoLease and no revoke will ever delete it.
 */
export function restore(backend: KvBackend, leases: LeaseIndex, options: StoreOptions): MvccStore {
  return new MvccStore(backend, leases, options);
}

/**
 * The MVCC keyspace of one member: every version of each key since the last compaction (etcd's
 * treeIndex of keyIndexes over the backend's rows), exact revision arithmetic, reads at a past revision,
 * compaction, lease attach/detach as kvstore_txn.go does it, and watches. The latest live versions are
 * also kept apart (`kvs`, `keys`) so reads at the current revision, the common case, skip the history.
 */
export class MvccStore {
  /** Latest version of each live key (etcd's treeIndex plus the value it points to). */
  private readonly kvs = new Map<string, KvRecord>();
  private readonly keys = new KeyTree();
  /** Every key with kept history, live or deleted (etcd's treeIndex), and its versions. */
  private readonly history = new Map<string, KeyHistory>();
  private readonly historyKeys = new KeyTree();
  /** etcd's compactMainRev: reads below it fail with ErrCompacted; -1 before any compaction. */
  private compactMainRev: number;
  /** etcd's currentRev: the revision of the last committed change; 1 before any. */
  private rev: number;
  private readonly log: EventLog;
  private readonly watchers: WatcherGroup;
  private readonly member: string;
  private readonly trace: Trace;
  private readonly now: () => Micros;
  /** The open write transaction's id (0: none) and its changes so far. */
  private openTxn = 0;
  private txnCount = 0;
  private changes: KvRecord[] = [];

  /** Use newStore or restore. */
  constructor(
    readonly backend: KvBackend,
    private readonly leases: LeaseIndex,
    options: StoreOptions,
  ) {
    this.member = options.member;
    this.trace = options.trace ?? NO_TRACE;
    this.now = options.now ?? (() => 0);
    this.log = new EventLog(options.eventLogCap ?? Infinity);
    this.watchers = new WatcherGroup(
      this.log,
      () => this.rev,
      () => this.compactMainRev,
    );
    this.compactMainRev = backend.compactRevision;
    for (const r of backend.records) {
      if (r.tombstone) this.kvs.delete(r.key);
      else this.kvs.set(r.key, r);
      this.remember(r);
    }
    for (const key of this.kvs.keys()) this.keys.insert(key);
    this.rev = backend.revision;
    this.log.append(backend.records);
    for (const key of this.keys.ascendFrom('')) {
      const id = this.kvs.get(key)!.lease;
      if (id === NoLease) continue;
      try {
        this.leases.attach(id, [key]);
      } catch {
        this.emitLeaseFailure('kv-restore-attach-failed', key, id);
      }
    }
  }

  get currentRevision(): number {
    return this.rev;
  }

  /** The revision of the last compaction (reads below it fail); -1 before any. */
  get compactRevision(): number {
    return this.compactMainRev;
  }

  /** A one-operation transaction. */
  put(key: string, value: string, leaseId: bigint = NoLease): PutResult {
    const txn = this.begin();
    try {
      return this.txnPut(txn, key, value, leaseId);
    } finally {
      this.end(txn);
    }
  }

  /** A one-operation transaction deleting a single key, or with `end` a range (see KeyRange). */
  deleteRange(key: string, end?: string): DeleteResult {
    const txn = this.begin();
    try {
      return this.txnDeleteRange(txn, key, end);
    } finally {
      this.end(txn);
    }
  }

  txnWrite(): TxnWrite {
    const txn = this.begin();
    return {
      put: (key, value, leaseId = NoLease) => this.txnPut(txn, key, value, leaseId),
      deleteRange: (key, end) => this.txnDeleteRange(txn, key, end),
      range: (key, end, opts) => {
        this.checkOpen(txn);
        return this.rangeKeys(key, end, opts);
      },
      end: () => this.end(txn),
    };
  }

  /**
   * etcd's rangeKeys: the keys in [key, end) (see KeyRange for `end`) as of `opts.rev`, in key order.
   * Inside a write transaction the read revision counts the transaction's own changes, as etcd's
   * storeTxnWrite.Range does. Throws ErrFutureRev above that revision, ErrCompacted below the last
   * compaction.
   */
  rangeKeys(key: string, end: string | undefined, opts: RangeKeysOptions = {}): RangeResult {
    const curRev = this.changes.length > 0 ? this.rev + 1 : this.rev;
    let rev = opts.rev ?? 0;
    if (rev > curRev) throw ErrFutureRev;
    if (rev <= 0) rev = curRev;
    if (rev < this.compactMainRev) throw ErrCompacted;
    const found = rev === curRev ? this.liveIn(key, end) : this.historicIn(key, end, rev);
    const count = found.length;
    const limit = opts.limit ?? 0;
    if (opts.count === true) return { kvs: [], count, rev: curRev };
    return { kvs: limit > 0 && limit < count ? found.slice(0, limit) : found, count, rev: curRev };
  }

  /**
   * etcd's Compact as the applier runs it (updateCompactRev, then the index and backend compaction, done
   * here at once): drops every version a read at `rev` or later cannot see. Throws ErrCompacted at or
   * below the last compaction, ErrFutureRev above the current revision.
   */
  compact(rev: number): void {
    if (rev <= this.compactMainRev) throw ErrCompacted;
    if (rev > this.rev) throw ErrFutureRev;
    this.compactMainRev = rev;
    const dropped = new Set<KvRecord>();
    const emptied: string[] = [];
    for (const [key, h] of this.history) {
      for (const r of h.compact(rev)) dropped.add(r);
      if (h.isEmpty) emptied.push(key);
    }
    for (const key of emptied) {
      this.history.delete(key);
      this.historyKeys.delete(key);
    }
    this.backend.compact(rev, dropped);
    this.log.remove(dropped);
  }

  private liveIn(key: string, end: string | undefined): KvRecord[] {
    if (end === undefined) {
      const kv = this.kvs.get(key);
      return kv === undefined ? [] : [kv];
    }
    const out: KvRecord[] = [];
    for (const k of this.keys.ascendFrom(key)) {
      if (end !== '' && k >= end) break;
      out.push(this.kvs.get(k)!);
    }
    return out;
  }

  private historicIn(key: string, end: string | undefined, rev: number): KvRecord[] {
    if (end === undefined) {
      const kv = this.history.get(key)?.at(rev);
      return kv === undefined ? [] : [kv];
    }
    const out: KvRecord[] = [];
    for (const k of this.historyKeys.ascendFrom(key)) {
      if (end !== '' && k >= end) break;
      const kv = this.history.get(k)!.at(rev);
      if (kv !== undefined) out.push(kv);
    }
    return out;
  }

  /** storeTxnWrite.deleteRange: the live keys in range as the transaction sees them, in key order. */
  private txnDeleteRange(txn: number, key: string, end: string | undefined): DeleteResult {
    if (end === undefined) return this.txnDelete(txn, key);
    this.checkOpen(txn);
    const keys = this.liveIn(key, end).map((kv) => kv.key);
    for (const k of keys) this.txnDelete(txn, k);
    return { deleted: keys.length, revision: this.changes.length > 0 ? this.rev + 1 : this.rev };
  }

  /** etcd's RangeDeleter, unbound so it can be handed to a lessor as is. */
  readonly rangeDeleter = (): TxnWrite => this.txnWrite();

  /** The latest version of `key`, or every live key under a prefix in key order. */
  range(key: string): KeyValue | undefined;
  range(prefix: string, opts: RangeOptions): KeyValue[];
  range(key: string, opts?: RangeOptions): KeyValue | undefined | KeyValue[] {
    if (opts === undefined) return this.kvs.get(key);
    return [...this.underPrefix(key)];
  }

  rangeAll(): KeyValue[] {
    return this.range('', { prefix: true });
  }

  /**
   * The key under `prefix` with the smallest createRevision: a Mutex's owner (WithFirstCreate). Keys
   * created in one transaction tie; the smallest key wins, as Go's insertion sort leaves it.
   */
  firstCreated(prefix: string): KeyValue | undefined {
    let best: KeyValue | undefined;
    for (const kv of this.underPrefix(prefix)) {
      if (best === undefined || kv.createRevision < best.createRevision) best = kv;
    }
    return best;
  }

  /**
   * The key under `prefix` with the largest createRevision below `rev`: what a Mutex waiter watches
   * (WithLastCreate, WithMaxCreateRev(rev - 1)). Ties go to the smallest key, as in firstCreated.
   */
  lastCreatedBefore(prefix: string, rev: number): KeyValue | undefined {
    let best: KeyValue | undefined;
    for (const kv of this.underPrefix(prefix)) {
      if (kv.createRevision < rev && (best === undefined || kv.createRevision > best.createRevision)) best = kv;
    }
    return best;
  }

  /** Watches a key or a prefix; see WatchOptions and WatchCallback. */
  watch(key: string, opts: WatchOptions, cb: WatchCallback): CancelWatch {
    return this.watchers.watch(key, opts, cb);
  }

  /** Watches a KeyRange from revision `from` (0: only what comes next), delivering rows; see RecordCallback. */
  watchRange(range: KeyRange, from: number, cb: RecordCallback): CancelWatch {
    return this.watchers.watchRange(range, from, cb);
  }

  private *underPrefix(prefix: string): Generator<KvRecord, void, undefined> {
    for (const key of this.keys.ascendFrom(prefix)) {
      if (!key.startsWith(prefix)) return;
      yield this.kvs.get(key)!;
    }
  }

  private begin(): number {
    // Single-threaded, but a callback could still try to nest: etcd would block on the store's lock.
    if (this.openTxn !== 0) throw new Error(`mvcc ${this.member}: a write transaction is already open`);
    this.openTxn = ++this.txnCount;
    return this.openTxn;
  }

  private checkOpen(txn: number): void {
    if (txn !== this.openTxn) throw new Error(`mvcc ${this.member}: write transaction used after end`);
  }

  /** storeTxnWrite.put: lease pre-check, new version, detach the old lease, attach the new one. */
  private txnPut(txn: number, key: string, value: string, leaseId: bigint): PutResult {
    this.checkOpen(txn);
    if (leaseId !== NoLease && !this.leases.lookup(leaseId)) return LEASE_NOT_FOUND;
    const rev = this.rev + 1;
    const prev = this.kvs.get(key);
    const oldLease = prev === undefined ? NoLease : this.leases.getLease(key);
    const r: KvRecord = {
      key,
      value,
      createRevision: prev === undefined ? rev : prev.createRevision,
      modRevision: rev,
      version: prev === undefined ? 1 : prev.version + 1,
      lease: leaseId,
      subRevision: this.changes.length,
      tombstone: false,
    };
    this.write(r);
    this.kvs.set(key, r);
    if (prev === undefined) this.keys.insert(key);
    if (this.trace.enabled) {
      this.trace.emit({ t: this.now(), member: this.member, kind: 'kv-put', fields: { key, rev, lease: leaseId } });
    }
    if (oldLease !== NoLease) this.detach(oldLease, key);
    if (leaseId !== NoLease) {
      try {
        this.leases.attach(leaseId, [key]);
      } catch (e) {
        throw new Error(
          `mvcc ${this.member}: attaching ${key} to lease ${formatLeaseId(leaseId)}` +
            ` failed after lookup found it (etcd panics): ${String(e)}`,
          { cause: e },
        );
      }
    }
    return { ok: true, revision: rev };
  }

  /** storeTxnWrite.delete: tombstone, then detach whatever lease the lessor has the key under. */
  private txnDelete(txn: number, key: string): DeleteResult {
    this.checkOpen(txn);
    if (!this.kvs.has(key)) return { deleted: 0, revision: this.changes.length > 0 ? this.rev + 1 : this.rev };
    const rev = this.rev + 1;
    this.write({
      key,
      value: '',
      createRevision: 0,
      modRevision: rev,
      version: 0,
      lease: NoLease,
      subRevision: this.changes.length,
      tombstone: true,
    });
    this.kvs.delete(key);
    this.keys.delete(key);
    if (this.trace.enabled)
      this.trace.emit({ t: this.now(), member: this.member, kind: 'kv-delete', fields: { key, rev } });
    const id = this.leases.getLease(key);
    if (id !== NoLease) this.detach(id, key);
    return { deleted: 1, revision: rev };
  }

  private write(r: KvRecord): void {
    this.backend.append(r);
    this.changes.push(r);
    this.remember(r);
  }

  private remember(r: KvRecord): void {
    let h = this.history.get(r.key);
    if (h === undefined) {
      this.history.set(r.key, (h = new KeyHistory()));
      this.historyKeys.insert(r.key);
    }
    h.append(r);
  }

  /** A failed Detach (the lease is gone) is only logged, as etcd does. */
  private detach(id: bigint, key: string): void {
    try {
      this.leases.detach(id, [key]);
    } catch {
      this.emitLeaseFailure('kv-detach-failed', key, id);
    }
  }

  private emitLeaseFailure(kind: 'kv-detach-failed' | 'kv-restore-attach-failed', key: string, lease: bigint): void {
    if (this.trace.enabled) this.trace.emit({ t: this.now(), member: this.member, kind, lease, fields: { key } });
  }

  /** storeTxnWrite.End: one revision bump for the whole transaction, only if it changed something. */
  private end(txn: number): number {
    this.checkOpen(txn);
    this.openTxn = 0;
    if (this.changes.length === 0) return this.rev;
    const changes = this.changes;
    this.changes = [];
    const rev = ++this.rev;
    this.log.append(changes);
    this.watchers.notify(changes);
    return rev;
  }
}
