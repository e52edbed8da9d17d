/**
 * Which finding class a violation belongs to: the scenario that shows it is replayed once per proposed
 * fix (src/switches/fixes.ts) not already on, and a class is one whose fix makes that property's
 * violation go away. None: the violation is unexplained (a new finding, or a model or monitor fault).
 */
import { FIXES, FIX_NAMES, type FixName } from '../../switches/fixes.js';
import type { Scenario } from '../../scenario/types.js';
import type { PropertyName } from '../monitors/property-names.js';
import { checkScenario } from './check-run.js';

export interface Classification {
  /** Fixes that remove the violation, in the table's order (narrow fixes first); empty: unexplained. */
  readonly fixes: readonly FixName[];
  /** The finding class of the first of them. */
  readonly finding: string | undefined;
}

export function classifyViolation(scenario: Scenario, property: PropertyName): Classification {
  const on = new Set(scenario.fixes ?? []);
  const fixes = FIX_NAMES.filter(
    (f) =>
      !on.has(f) &&
      checkScenario({ ...scenario, fixes: [...on, f] }, { properties: [property] }).violation === undefined,
  );
  return { fixes, finding: fixes[0] === undefined ? undefined : FIXES[fixes[0]].finding };
}
