/** What a property monitor reports: the first event that breaks the property, and how to show it. */
import type { Micros } from '../../clock/time.js';
import type { TraceEvent } from '../../trace/trace.js';
import type { DraftAssertion, DraftStep } from '../draft/format-step.js';
import type { PropertyName } from './property-names.js';

/**
 * An `expect` that should fail on replay because of the violation, with any extra steps that make the
 * consequence visible (say, a leader transfer that exposes a stale checkpoint). Candidates are tried in
 * order; the counterexample keeps the first that fails when replayed.
 */
export interface ExpectCandidate {
  readonly atUs: Micros;
  readonly assertion: DraftAssertion;
  /** Steps to add before the expect (they run after everything the violation depends on). */
  readonly probe?: readonly DraftStep[];
}

export interface Violation {
  readonly property: PropertyName;
  /** When the property was first broken (for an absence, the deadline that passed). */
  readonly atUs: Micros;
  /** The first violating event. */
  readonly event: TraceEvent;
  /** Its 1-based line in `lessor-sim trace` output. */
  readonly traceLine: number;
  readonly message: string;
  readonly expects: readonly ExpectCandidate[];
}
