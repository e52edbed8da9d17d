/**
 * The toolkit's entry points for a vitest (or any) suite: a fast-check property over generated runs,
 * and a search that returns the shrunk, verified counterexample as a scenario file.
 */
import fc from 'fast-check';
import { formatTime } from '../../clock/time.js';
import { runArb, type GeneratedRun, type RunConstraints } from '../arbitraries/run-arb.js';
import type { PropertyName } from '../monitors/property-names.js';
import type { Violation } from '../monitors/violation.js';
import { checkRun } from './check-run.js';
import { counterexample, type Counterexample, type CounterexampleOptions } from './counterexample.js';

export interface LeasePropertyOptions extends RunConstraints {
  /** The properties to check; default all. */
  readonly properties?: readonly PropertyName[];
  /** The runs to check, instead of `runArb` of the constraints (a targeted family, say). */
  readonly runs?: fc.Arbitrary<GeneratedRun>;
}

/** Thrown by a failing run: carries the violation (fast-check reports its message). */
export class PropertyViolation extends Error {
  constructor(readonly violation: Violation) {
    super(
      `${violation.property} violated at ${formatTime(violation.atUs)}` +
        ` (trace line ${violation.traceLine}): ${violation.message}`,
    );
    this.name = 'PropertyViolation';
  }
}

/** A fast-check property: every generated run satisfies the chosen properties. */
export function leaseProperty(opts: LeasePropertyOptions = {}): fc.IPropertyWithHooks<[GeneratedRun]> {
  return fc.property(opts.runs ?? runArb(opts), (run) => {
    const v = checkRun(run, opts.properties === undefined ? {} : { properties: opts.properties });
    if (v.violation !== undefined) throw new PropertyViolation(v.violation);
  });
}

/**
 * Checks the property and, when a run violates it, returns the shrunk run as a counterexample file
 * whose `expect` fails on replay; undefined when every run passed.
 */
export function findCounterexample(
  opts: LeasePropertyOptions,
  params: fc.Parameters<[GeneratedRun]> = {},
  cx: CounterexampleOptions = {},
): Counterexample | undefined {
  const out = fc.check(leaseProperty(opts), params);
  if (!out.failed || out.counterexample === null) return undefined;
  return counterexampleOf(out.counterexample[0], opts.properties, cx);
}

/** Replays a failing generated run and writes its counterexample; undefined if it does not fail. */
export function counterexampleOf(
  run: GeneratedRun,
  properties: readonly PropertyName[] | undefined,
  cx: CounterexampleOptions = {},
): Counterexample | undefined {
  const v = checkRun(run, properties === undefined ? {} : { properties });
  if (v.violation === undefined) return undefined;
  return counterexample(run.setup, v.drafted.steps, v.drafted.durationUs, v.violation, cx);
}

/** Throws an Error whose message is the counterexample scenario file, when the property fails. */
export function assertLeaseProperty(opts: LeasePropertyOptions, params: fc.Parameters<[GeneratedRun]> = {}): void {
  const cx = findCounterexample(opts, params);
  if (cx !== undefined)
    throw new Error(`property ${cx.violation.property} failed; counterexample scenario:\n\n${cx.yaml}`);
}
