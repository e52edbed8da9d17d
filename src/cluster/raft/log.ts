import { NO_ENTRIES, type Entry } from './entry.js';

/** Read access to a member's log, for owners and checkers. */
export interface RaftLogView {
  lastIndex(): number;
  /** Term of the entry at `index`, 0 for index 0, undefined past the end. */
  term(index: number): number | undefined;
  entry(index: number): Entry | undefined;
}

/**
 * raftLog: the in-memory log with the commit and apply cursors, and the durable/unstable boundary of
 * etcd's `unstable`. Entries past `stable` may still be rewritten by a new leader; `unstableFrom` is the
 * first entry no WAL write has picked up yet.
 */
export class RaftLog implements RaftLogView {
  /** ents[i].index === i; ents[0] is the sentinel. */
  private readonly ents: Entry[];
  committed: number;
  applied: number;
  /** Entries up to here are durable and identical in storage. */
  stable: number;
  unstableFrom: number;

  /** `persisted` starts with the sentinel; it becomes this log's own array. */
  constructor(persisted: Entry[], committed: number, applied: number) {
    this.ents = persisted;
    this.stable = this.lastIndex();
    this.unstableFrom = this.stable + 1;
    this.committed = committed;
    this.applied = applied;
  }

  lastIndex(): number {
    return this.ents.length - 1;
  }

  lastTerm(): number {
    return this.ents[this.ents.length - 1]!.term;
  }

  term(index: number): number | undefined {
    return index >= 0 ? this.ents[index]?.term : undefined;
  }

  entry(index: number): Entry | undefined {
    return index >= 1 ? this.ents[index] : undefined;
  }

  /** Entries [lo, hi), shared by reference. */
  slice(lo: number, hi: number): readonly Entry[] {
    return lo >= hi ? NO_ENTRIES : this.ents.slice(lo, hi);
  }

  matchTerm(index: number, term: number): boolean {
    return this.ents[index]?.term === term;
  }

  /** Raft paper §5.4.1: a candidate's log is at least as up-to-date as ours. */
  isUpToDate(lastIndex: number, lastTerm: number): boolean {
    const t = this.lastTerm();
    return lastTerm > t || (lastTerm === t && lastIndex >= this.lastIndex());
  }

  /** Index of the first of `ents` that is missing or conflicts with ours; 0 when we already hold them all. */
  findConflict(ents: readonly Entry[]): number {
    for (const e of ents) if (!this.matchTerm(e.index, e.term)) return e.index;
    return 0;
  }

  /** The largest index ≤ `index` whose term is ≤ `term`: where a leader's and a follower's logs may agree. */
  findConflictByTerm(index: number, term: number): number {
    let i = Math.min(index, this.lastIndex());
    while (i > 0 && this.ents[i]!.term > term) i--;
    return i;
  }

  /**
   * The follower side of MsgApp: if our entry at `index` has `logTerm`, take `ents` (truncating from the
   * first conflict) and advance the commit index; returns the last index now known to match, or -1.
   */
  maybeAppend(index: number, logTerm: number, committed: number, ents: readonly Entry[]): number {
    if (!this.matchTerm(index, logTerm)) return -1;
    const lastNew = index + ents.length;
    const ci = this.findConflict(ents);
    if (ci !== 0) this.append(ents, ci - index - 1);
    this.commitTo(Math.min(committed, lastNew));
    return lastNew;
  }

  /** Appends `ents` from position `skip`, truncating our log where they begin. Committed entries never go. */
  append(ents: readonly Entry[], skip = 0): void {
    const first = ents[skip];
    if (first === undefined) return;
    const after = first.index - 1;
    if (after < this.committed)
      throw new Error(`raft log: truncating committed entries (after ${after}, committed ${this.committed})`);
    if (after > this.lastIndex()) throw new Error(`raft log: gap between ${this.lastIndex()} and ${first.index}`);
    this.ents.length = after + 1;
    for (let i = skip; i < ents.length; i++) this.ents.push(ents[i]!);
    if (this.unstableFrom > after + 1) this.unstableFrom = after + 1;
    if (this.stable > after) this.stable = after;
  }

  /** A leader's own new entry, past the end. */
  push(e: Entry): void {
    if (e.index !== this.ents.length) throw new Error(`raft log: appending ${e.index} after ${this.lastIndex()}`);
    this.ents.push(e);
  }

  commitTo(index: number): void {
    if (index <= this.committed) return;
    if (index > this.lastIndex())
      throw new Error(`raft log: commit ${index} is past the last index ${this.lastIndex()}`);
    this.committed = index;
  }

  /** A leader commits `index` only if it is from its own term (Raft paper §5.4.2). */
  maybeCommit(index: number, term: number): boolean {
    if (index > this.committed && this.term(index) === term) {
      this.committed = index;
      return true;
    }
    return false;
  }

  hasUnstable(): boolean {
    return this.unstableFrom <= this.lastIndex();
  }

  /** Hands the unstable entries to a WAL write. */
  takeUnstable(): readonly Entry[] {
    const ents = this.slice(this.unstableFrom, this.ents.length);
    this.unstableFrom = this.ents.length;
    return ents;
  }

  /** A write of entries up to (index, term) finished; they are durable unless a leader replaced them since. */
  stableTo(index: number, term: number): void {
    if (this.matchTerm(index, term) && index > this.stable) this.stable = index;
  }

  /** Committed entries that are durable here and not yet applied are ready for the state machine. */
  hasNextEntry(): boolean {
    return this.applied < this.committed && this.applied < this.stable;
  }

  nextEntry(): Entry {
    const e = this.ents[++this.applied];
    if (e === undefined) throw new Error(`raft log: no entry ${this.applied} to apply`);
    return e;
  }
}
