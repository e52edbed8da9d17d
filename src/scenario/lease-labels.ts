/**
 * Lease labels granted so far, in file order. `grant-many` labels are kept as ranges (`P1`..`PN`) so a
 * million-lease step costs one entry, not a million.
 */
import type { SourcePos } from './types.js';

interface LabelRange {
  readonly prefix: string;
  readonly count: number;
  readonly pos: SourcePos;
}

const INDEX = /^[1-9][0-9]*$/;

/** The label of the i-th lease (from 1) of a `grant-many` with this prefix; `LeaseLabels` reads it back. */
export const grantManyLabel = (prefix: string, i: number): string => `${prefix}${i}`;

export class LeaseLabels {
  private readonly exact = new Map<string, SourcePos>();
  private readonly ranges: LabelRange[] = [];

  /** Where `label` was granted, if it was. */
  find(label: string): SourcePos | undefined {
    return this.exact.get(label) ?? this.ranges.find((r) => inRange(r, label))?.pos;
  }

  /** Registers `label`; on a clash returns where the earlier grant is and registers nothing. */
  define(label: string, pos: SourcePos): SourcePos | undefined {
    const clash = this.find(label);
    if (clash === undefined) this.exact.set(label, pos);
    return clash;
  }

  /** Registers `${prefix}1`..`${prefix}${count}`; on a clash returns where the earlier grant is. */
  defineRange(prefix: string, count: number, pos: SourcePos): SourcePos | undefined {
    const range = { prefix, count, pos };
    for (const [label, at] of this.exact) if (inRange(range, label)) return at;
    // Prefixes that extend one another (`P`, `P1`) could name the same lease (`P11`); refuse them outright.
    const overlap = this.ranges.find((r) => r.prefix.startsWith(prefix) || prefix.startsWith(r.prefix));
    if (overlap) return overlap.pos;
    this.ranges.push(range);
    return undefined;
  }
}

function inRange(r: LabelRange, label: string): boolean {
  if (!label.startsWith(r.prefix)) return false;
  const index = label.slice(r.prefix.length);
  return INDEX.test(index) && Number(index) <= r.count;
}
