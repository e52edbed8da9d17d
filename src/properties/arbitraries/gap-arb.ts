/**
 * Time between two generated steps: often none or a few milliseconds (races), usually a fraction of a second to a few
 * seconds.
 */
import fc from 'fast-check';
import { MICROS_PER_MS, MICROS_PER_SECOND, type Micros } from '../../clock/time.js';

export interface GapConstraints {
  /** Longest gap; default 3 s. */
  readonly maxUs?: Micros;
}

export function gapArb(c: GapConstraints = {}): fc.Arbitrary<Micros> {
  const max = c.maxUs ?? 3 * MICROS_PER_SECOND;
  // Tenths of a millisecond: fine enough for races, short enough to read in a scenario file.
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: Math.min(max, 5 * MICROS_PER_MS) }) },
      { weight: 4, arbitrary: fc.integer({ min: 10 * MICROS_PER_MS, max: Math.min(max, MICROS_PER_SECOND) }) },
      { weight: 3, arbitrary: fc.integer({ min: Math.min(max, MICROS_PER_SECOND), max }) },
    )
    .map((us) => Math.round(us / 100) * 100);
}
