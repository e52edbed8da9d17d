import type { KvRecord } from './kv.js';

/**
 * The recent changes a watch may replay from (etcd replays from the backend, bounded by compaction; the
 * cap plays compaction's part here). Changes leave oldest first; since a revision may lose only some of
 * its changes, replay is offered from revisions after the newest one that lost any (`compactRevision`).
 */
export class EventLog {
  private rows: KvRecord[] = [];
  private head = 0;
  private compacted = 0;

  /** @param cap most changes kept; Infinity keeps every change. */
  constructor(private readonly cap: number) {
    if (!(cap >= 0)) throw new RangeError(`mvcc event log: cap must be >= 0, got ${cap}`);
  }

  /** The newest revision whose changes were dropped (0 while nothing was); replay needs a later one. */
  get compactRevision(): number {
    return this.compacted;
  }

  /** Appends changes in revision order (one transaction's, or a whole backend's on restore). */
  append(records: readonly KvRecord[]): void {
    for (const r of records) this.rows.push(r);
    if (this.rows.length - this.head <= this.cap) return;
    while (this.rows.length - this.head > this.cap) this.compacted = this.rows[this.head++]!.modRevision;
    // Reclaim the dropped prefix once it outweighs what is kept, so trimming stays amortised O(1).
    if (this.head * 2 > this.rows.length) {
      this.rows = this.rows.slice(this.head);
      this.head = 0;
    }
  }

  /** Drops the changes a compaction deleted from the backend. */
  remove(dropped: ReadonlySet<KvRecord>): void {
    if (dropped.size === 0) return;
    this.rows = this.rows.slice(this.head).filter((r) => !dropped.has(r));
    this.head = 0;
  }

  /** Changes at revision `from` or later, oldest first; undefined when some were already dropped. */
  since(from: number): KvRecord[] | undefined {
    if (from <= this.compacted) return undefined;
    let lo = this.head;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows[mid]!.modRevision < from) lo = mid + 1;
      else hi = mid;
    }
    return this.rows.slice(lo);
  }
}
