/**
 * A violation as a scenario file: the run's setup and steps, the violation in comments, and an `expect`
 * that fails on replay for the same reason. Each of the monitor's expect candidates is tried by
 * replaying the file (the run is deterministic, so everything before the expect is the same run); the
 * first candidate whose expect fails, with the same violation still reported, is kept.
 */
import { MICROS_PER_SECOND, formatSeconds, type Micros } from '../../clock/time.js';
import type { Scenario } from '../../scenario/types.js';
import { formatEvent } from '../../trace/trace.js';
import type { DraftStep } from '../draft/format-step.js';
import type { RunSetup } from '../draft/run-setup.js';
import { draftScenario, renderScenario, type DraftLayout } from '../draft/scenario-draft.js';
import { PROPERTIES } from '../monitors/property-names.js';
import type { ExpectCandidate, Violation } from '../monitors/violation.js';
import { checkScenario } from './check-run.js';

export interface Counterexample {
  readonly yaml: string;
  readonly scenario: Scenario;
  readonly violation: Violation;
  /** The expect that fails on replay, if some candidate did. */
  readonly expect: ExpectCandidate | undefined;
  /** Its 1-based line in the file. */
  readonly expectLine: number | undefined;
}

export interface CounterexampleOptions {
  readonly name?: string;
  readonly file?: string;
  /** Extra header comment lines (how the run was found: campaign seed, run index). */
  readonly origin?: readonly string[];
}

export function counterexample(
  setup: RunSetup,
  steps: readonly DraftStep[],
  durationUs: Micros,
  violation: Violation,
  opts: CounterexampleOptions = {},
): Counterexample {
  const name = opts.name ?? `counterexample-${violation.property}`;
  const file = opts.file ?? `${name}.yaml`;
  const header = headerLines(violation, opts.origin ?? []);
  for (const c of violation.expects) {
    const built = withExpect(steps, durationUs, c);
    const l: DraftLayout = {
      name,
      file,
      header: [...header, 'Replay: npx lessor-sim run FILE (exits 1: the expect below fails).'],
      comments: expectComment(built.expectIndex, violation),
    };
    const scenario = draftScenario(setup, built.steps, built.durationUs, l);
    const v = checkScenario(scenario, { properties: [violation.property] });
    const line = scenario.steps[built.expectIndex]!.pos.line;
    const failed = v.result.assertions.some((a) => a.step.pos.line === line && !a.passed);
    const same = v.violation !== undefined && v.violation.atUs === violation.atUs;
    if (failed && same)
      return {
        yaml: renderScenario(setup, built.steps, built.durationUs, l),
        scenario,
        violation,
        expect: c,
        expectLine: line,
      };
  }
  const l: DraftLayout = {
    name,
    file,
    header: [
      ...header,
      `Replay: npx lessor-sim check FILE --property ${violation.property} (exits 1: the monitor finds the ` +
        'violation; no expect form shows it, so `run` alone passes).',
    ],
  };
  return {
    yaml: renderScenario(setup, steps, durationUs, l),
    scenario: draftScenario(setup, steps, durationUs, l),
    violation,
    expect: undefined,
    expectLine: undefined,
  };
}

function headerLines(v: Violation, origin: readonly string[]): string[] {
  return [
    `Counterexample for property ${v.property} (bug catalogue §K ` +
      `${PROPERTIES[v.property].catalogue}): ${PROPERTIES[v.property].summary}.`,
    `Violated at ${formatSeconds(v.atUs)} s: ${v.message}.`,
    `First violating event (\`lessor-sim trace\` line ${v.traceLine}, counting no expect-* lines):`,
    `  ${formatEvent(v.event)}`,
    ...origin,
  ];
}

function expectComment(index: number, v: Violation): ReadonlyMap<number, readonly string[]> {
  return new Map([[index, [`${v.property}: ${v.message}`]]]);
}

/** The steps with the candidate's probe and expect inserted in time order (after steps at the same instant). */
function withExpect(
  steps: readonly DraftStep[],
  durationUs: Micros,
  c: ExpectCandidate,
): { steps: DraftStep[]; expectIndex: number; durationUs: Micros } {
  const out = [...steps];
  const insert = (s: DraftStep): number => {
    let k = out.length;
    while (k > 0 && out[k - 1]!.atUs > s.atUs) k--;
    out.splice(k, 0, s);
    return k;
  };
  for (const p of c.probe ?? []) insert(p);
  const expectIndex = insert({ kind: 'expect', atUs: c.atUs, assertion: c.assertion });
  return { steps: out, expectIndex, durationUs: Math.max(durationUs, c.atUs + MICROS_PER_SECOND) };
}
