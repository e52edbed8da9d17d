import type { EventLog } from './event-log.js';
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

export type CancelWatch = () => void;

class Watcher {
  cancelled = false;
  constructor(
    readonly id: number,
    readonly key: string,
    readonly prefix: boolean,
    /** The next revision this watcher has not seen: older transactions are skipped. */
    public nextRev: number,
    readonly cb: WatchCallback,
  ) {}

  matches(key: string): boolean {
    return this.prefix ? key.startsWith(this.key) : key === this.key;
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
  ) {}

  watch(key: string, opts: WatchOptions, cb: WatchCallback): CancelWatch {
    const from = opts.fromRevision ?? 0;
    const current = this.currentRevision();
    let history: KvRecord[] = [];
    if (from > 0 && from <= current) {
      const kept = this.log.since(from);
      if (kept === undefined) {
        cb([], { compactRevision: this.log.compactRevision });
        return () => {};
      }
      history = kept;
    }
    const w = new Watcher(this.nextId++, key, opts.prefix === true, Math.max(from, current + 1), cb);
    if (w.prefix) this.prefixed.add(w);
    else {
      let set = this.exact.get(key);
      if (set === undefined) this.exact.set(key, (set = new Set()));
      set.add(w);
    }
    if (history.length > 0) this.run(() => replay(w, history));
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
    if (w.prefix) {
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
    const batches = new Map<Watcher, WatchEvent[]>();
    for (const r of changes) {
      let ev: WatchEvent | undefined;
      const set = this.exact.get(r.key);
      if (set !== undefined) {
        for (const w of set) if (rev >= w.nextRev) push(batches, w, (ev ??= toWatchEvent(r)));
      }
      for (const w of this.prefixed) {
        if (rev >= w.nextRev && w.matches(r.key)) push(batches, w, (ev ??= toWatchEvent(r)));
      }
    }
    const watchers = [...batches.keys()];
    if (watchers.length > 1) watchers.sort(byId);
    for (const w of watchers) {
      if (w.cancelled) continue;
      w.nextRev = rev + 1;
      w.cb(batches.get(w)!);
    }
  }
}

function push(batches: Map<Watcher, WatchEvent[]>, w: Watcher, ev: WatchEvent): void {
  const batch = batches.get(w);
  if (batch === undefined) batches.set(w, [ev]);
  else batch.push(ev);
}

/** Replays kept history to a new watcher, one call per revision; its nextRev is already past it. */
function replay(w: Watcher, history: readonly KvRecord[]): void {
  let batch: WatchEvent[] = [];
  for (let i = 0; i < history.length; i++) {
    const r = history[i]!;
    if (w.matches(r.key)) batch.push(toWatchEvent(r));
    const endOfTxn = i + 1 === history.length || history[i + 1]!.modRevision !== r.modRevision;
    if (endOfTxn && batch.length > 0) {
      if (w.cancelled) return;
      w.cb(batch);
      batch = [];
    }
  }
}
