import type { EventLog } from './event-log.js';
import { inKeyRange, type KeyRange } from './key-range.js';
import { toWatchEvent, type KvRecord, type WatchEvent } from './kv.js';

export interface WatchOptions {
  /** Watch every key that starts with the given key ('' watches everything). */
  readonly prefix?: boolean;
  /**
   * First revision to report. 0 or absent: only changes after the current revision. A past revision
   * replays the kept history first, synchronously, before `watch` returns.
   */
  readonly fromRevision?: number;
}

/** Why a watch ended without events: the history it asked for is gone (etcd's ErrCompacted). */
export interface WatchCompacted {
  /** Replay must start after this revision. */
  readonly compactRevision: number;
}

/**
 * Receives one call per transaction, events in sub-revision order. A compacted watch gets a single
 * call with no events and the error, and is not registered.
 */
export type WatchCallback = (events: WatchEvent[], compacted?: WatchCompacted) => void;

/**
 * A range watch's receiver (etcd's watcher channel): the changed rows themselves. Kept history comes in
 * one call (etcd's syncWatchers sends it as one response), then one call per transaction. A compacted
 * watch gets one call with no rows and the error, and is not registered.
 */
export type RecordCallback = (records: readonly KvRecord[], compacted?: WatchCompacted) => void;

export type CancelWatch = () => void;

class Watcher {
  cancelled = false;
  constructor(
    readonly id: number,
    readonly key: string,
    /** 'prefix', or a KeyRange's end ('' for every key from `key` on), undefined for the key alone. */
    readonly end: string | undefined | 'prefix',
    /** The next revision this watcher has not seen: older transactions are skipped. */
    public nextRev: number,
    /** Receives WatchEvents (the client library's watches) or rows (range watches). */
    readonly cb: WatchCallback | undefined,
    readonly rowsCb: RecordCallback | undefined,
  ) {}

  matches(key: string): boolean {
    if (this.end === 'prefix') return key.startsWith(this.key);
    return inKeyRange({ key: this.key, end: this.end }, key);
  }

  call(records: readonly KvRecord[]): void {
    if (this.rowsCb !== undefined) this.rowsCb(records);
    else this.cb!(records.map(toWatchEvent));
  }
}

const byId = (a: Watcher, b: Watcher): number => a.id - b.id;

/**
 * The watchers of one store (etcd's watcherGroup plus watchableStore.notify), delivering synchronously.
 *
 * A callback may write to the store or open a watch. Such reentrant work is queued and delivered after
 * the current transaction's events, so every watcher sees revisions in increasing order; watchers of
 * one transaction are called in the order they were created.
 */
export class WatcherGroup {
  private readonly exact = new Map<string, Set<Watcher>>();
  private readonly prefixed = new Set<Watcher>();
  private nextId = 0;
  private readonly pending: (readonly KvRecord[])[] = [];
  private delivering = false;

  constructor(
    private readonly log: EventLog,
    private readonly currentRevision: () => number,
    /** The store's last compaction: a watch starting below it is compacted (etcd's compactMainRev). */
    private readonly compactRevision: () => number,
  ) {}

  watch(key: string, opts: WatchOptions, cb: WatchCallback): CancelWatch {
    const end = opts.prefix === true ? 'prefix' : undefined;
    return this.add(key, end, opts.fromRevision ?? 0, cb, undefined);
  }

  /**
   * Watches a KeyRange from revision `from` (0: after the current one), delivering rows; see
   * RecordCallback. The history replay is synchronous, before this returns.
   */
  watchRange(range: KeyRange, from: number, cb: RecordCallback): CancelWatch {
    return this.add(range.key, range.end, from, undefined, cb);
  }

  private add(
    key: string,
    end: string | undefined | 'prefix',
    from: number,
    cb: WatchCallback | undefined,
    rowsCb: RecordCallback | undefined,
  ): CancelWatch {
    const current = this.currentRevision();
    let history: KvRecord[] = [];
    if (from > 0 && from <= current) {
      const compactRev = this.compactRevision();
      const kept = from < compactRev ? undefined : this.log.since(from);
      if (kept === undefined) {
        const c = { compactRevision: from < compactRev ? compactRev : this.log.compactRevision };
        if (rowsCb !== undefined) rowsCb([], c);
        else cb!([], c);
        return () => {};
      }
      history = kept;
    }
    const w = new Watcher(this.nextId++, key, end, Math.max(from, current + 1), cb, rowsCb);
    if (end !== undefined) this.prefixed.add(w);
    else {
      let set = this.exact.get(key);
      if (set === undefined) this.exact.set(key, (set = new Set()));
      set.add(w);
    }
    if (history.length > 0) this.run(() => (rowsCb !== undefined ? replayWhole(w, history) : replay(w, history)));
    return () => this.cancel(w);
  }

  /** Delivers one committed transaction's changes (all at one revision, in sub-revision order). */
  notify(changes: readonly KvRecord[]): void {
    if (this.exact.size === 0 && this.prefixed.size === 0) return;
    this.pending.push(changes);
    this.run(() => {});
  }

  private cancel(w: Watcher): void {
    if (w.cancelled) return;
    w.cancelled = true;
    if (w.end !== undefined) {
      this.prefixed.delete(w);
      return;
    }
    const set = this.exact.get(w.key);
    set?.delete(w);
    if (set?.size === 0) this.exact.delete(w.key);
  }

  /** Runs `fn`, then drains the queue, unless a delivery is already under way further up the stack. */
  private run(fn: () => void): void {
    if (this.delivering) return fn();
    this.delivering = true;
    try {
      fn();
      // A callback that throws leaves the rest queued for the next notify.
      while (this.pending.length > 0) this.deliver(this.pending.shift()!);
    } finally {
      this.delivering = false;
    }
  }

  private deliver(changes: readonly KvRecord[]): void {
    const rev = changes[0]!.modRevision;
    const batches = new Map<Watcher, KvRecord[]>();
    for (const r of changes) {
      const set = this.exact.get(r.key);
      if (set !== undefined) {
        for (const w of set) if (rev >= w.nextRev) push(batches, w, r);
      }
      for (const w of this.prefixed) {
        if (rev >= w.nextRev && w.matches(r.key)) push(batches, w, r);
      }
    }
    const watchers = [...batches.keys()];
    if (watchers.length > 1) watchers.sort(byId);
    for (const w of watchers) {
      if (w.cancelled) continue;
      w.nextRev = rev + 1;
      w.call(batches.get(w)!);
    }
  }
}

function push(batches: Map<Watcher, KvRecord[]>, w: Watcher, r: KvRecord): void {
  const batch = batches.get(w);
  if (batch === undefined) batches.set(w, [r]);
  else batch.push(r);
}

/** Replays kept history to a new range watcher in one call. */
function replayWhole(w: Watcher, history: readonly KvRecord[]): void {
  const rows = history.filter((r) => w.matches(r.key));
  if (rows.length > 0 && !w.cancelled) w.call(rows);
}

/** Replays kept history to a new watcher, one call per revision; its nextRev is already past it. */
function replay(w: Watcher, history: readonly KvRecord[]): void {
  let batch: KvRecord[] = [];
  for (let i = 0; i < history.length; i++) {
    const r = history[i]!;
    if (w.matches(r.key)) batch.push(r);
    const endOfTxn = i + 1 === history.length || history[i + 1]!.modRevision !== r.modRevision;
    if (endOfTxn && batch.length > 0) {
      if (w.cancelled) return;
      w.call(batch);
      batch = [];
    }
  }
}
