import type { KvRecord } from './kv.js';

/**
 * Every kept version of one key, tombstones included, oldest first: etcd's keyIndex, whose generations
 * are the runs ending at a tombstone. The records are the backend's own rows, so history costs one
 * reference per version, and compaction frees what it drops.
 */
export class KeyHistory {
  private revs: KvRecord[] = [];

  get isEmpty(): boolean {
    return this.revs.length === 0;
  }

  append(r: KvRecord): void {
    this.revs.push(r);
  }

  /** The key as of main revision `rev` (etcd's keyIndex.get): undefined if absent or deleted then. */
  at(rev: number): KvRecord | undefined {
    let lo = 0;
    let hi = this.revs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.revs[mid]!.modRevision <= rev) lo = mid + 1;
      else hi = mid;
    }
    const r = lo === 0 ? undefined : this.revs[lo - 1];
    return r === undefined || r.tombstone ? undefined : r;
  }

  /**
   * etcd's keyIndex.compact: keeps the newest version at or below `rev` unless it is a tombstone, and
   * everything above `rev`; drops the rest. Returns the dropped rows (the backend deletes them).
   */
  compact(rev: number): KvRecord[] {
    let last = -1;
    while (last + 1 < this.revs.length && this.revs[last + 1]!.modRevision <= rev) last++;
    if (last < 0) return [];
    const from = this.revs[last]!.tombstone ? last + 1 : last;
    const dropped = this.revs.slice(0, from);
    this.revs = this.revs.slice(from);
    return dropped;
  }
}
