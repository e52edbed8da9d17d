/// <reference lib="dom" />
/** The scenario files baked into the page at build time, and the one it opens first. */

export interface LibraryEntry {
  readonly file: string;
  readonly text: string;
}

export interface Baked {
  readonly library: readonly LibraryEntry[];
  /** The file `lessor-sim playground FILE` named, else the runbook. */
  readonly initial: LibraryEntry;
}

export function readBaked(): Baked {
  const el = document.getElementById('baked');
  return JSON.parse(el?.textContent ?? '{}') as Baked;
}
