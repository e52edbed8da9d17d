import { SENTINEL, type Entry } from './entry.js';

/**
 * What a member has made durable: the WAL's hard state and entries. The owner keeps this object across a
 * crash and hands it to the next RaftNode, which resumes from it. The log is kept whole (no snapshots, no
 * compaction).
 */
export class RaftStorage {
  term = 0;
  vote: string | undefined = undefined;
  /**
   * The highest index known here to be committed and durable; a restart re-applies up to it at once.
   * It needs no fsync: like the HardState etcd writes when only Commit changed, it outlives a process crash.
   */
  commit = 0;
  private readonly ents: Entry[] = [SENTINEL];

  lastIndex(): number {
    return this.ents.length - 1;
  }

  entry(index: number): Entry | undefined {
    return index >= 1 ? this.ents[index] : undefined;
  }

  /** Every entry, index 0 (the sentinel) first; a copy the caller may extend. */
  entries(): Entry[] {
    return this.ents.slice();
  }

  /** One WAL write: term and vote, then entries from `from` on, replacing whatever the WAL held there. */
  save(term: number, vote: string | undefined, from: number, ents: readonly Entry[]): void {
    this.term = term;
    this.vote = vote;
    if (ents.length === 0) return;
    if (from < 1 || from > this.ents.length)
      throw new Error(`raft storage: write at ${from} leaves a gap after ${this.lastIndex()}`);
    this.ents.length = from;
    for (const e of ents) this.ents.push(e);
  }
}
