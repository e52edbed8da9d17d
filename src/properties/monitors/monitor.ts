/** A property monitor: reads a finished run and reports the first event that breaks its property. */
import type { PropertyName } from './property-names.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export interface Monitor {
  readonly name: PropertyName;
  check(view: RunView): Violation | undefined;
}

/** The earliest of several candidate violations (ties: the earlier trace line). */
export function earliest(vs: readonly (Violation | undefined)[]): Violation | undefined {
  let best: Violation | undefined;
  for (const v of vs) {
    if (v === undefined) continue;
    if (best === undefined || v.atUs < best.atUs || (v.atUs === best.atUs && v.traceLine < best.traceLine)) best = v;
  }
  return best;
}
