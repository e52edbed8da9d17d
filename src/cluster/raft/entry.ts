/**
 * One log entry (raftpb.Entry). Immutable and shared by reference between logs, messages and storage.
 * `data` is null for the empty entry a new leader appends at the start of its term.
 */
export interface Entry {
  readonly index: number;
  readonly term: number;
  readonly data: unknown;
}

/** Index 0: the entry every log starts from, so `term(0)` is 0 and index arithmetic needs no cases. */
export const SENTINEL: Entry = Object.freeze({ index: 0, term: 0, data: null });

export const NO_ENTRIES: readonly Entry[] = Object.freeze([]);
