import type { KvRecord } from './kv.js';

/**
 * The durable part of one member's keyspace: etcd's bolt "key" bucket, every version of every key in
 * revision order. A simulated crash throws the store away and keeps this object; `restore` rebuilds the
 * store from it. Rows are durable as soon as they are appended (no batch-commit window is modelled), and
 * compaction deletes the rows the index dropped and records its revision (etcd's meta bucket).
 */
export class KvBackend {
  private rows: KvRecord[] = [];
  private compacted = -1;

  /** The last compaction's revision (etcd's finishedCompactRev), -1 before any. */
  get compactRevision(): number {
    return this.compacted;
  }

  /** Deletes the dropped rows (all at or below `rev`) and records the compaction. */
  compact(rev: number, dropped: ReadonlySet<KvRecord>): void {
    this.compacted = rev;
    if (dropped.size > 0) this.rows = this.rows.filter((r) => !dropped.has(r));
  }

  /** Every row, oldest first. */
  get records(): readonly KvRecord[] {
    return this.rows;
  }

  /** The highest main revision written, 1 (etcd's initial revision) when empty. */
  get revision(): number {
    return Math.max(this.rows.at(-1)?.modRevision ?? 1, this.compacted);
  }

  append(r: KvRecord): void {
    const last = this.rows.at(-1);
    if (
      last !== undefined &&
      (r.modRevision < last.modRevision || (r.modRevision === last.modRevision && r.subRevision <= last.subRevision))
    ) {
      throw new Error(
        `mvcc backend: revision ${r.modRevision}.${r.subRevision}` +
          ` written after ${last.modRevision}.${last.subRevision}`,
      );
    }
    this.rows.push(r);
  }
}
