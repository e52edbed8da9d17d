/** Helpers for the timeline renderer's tests: fixture scenarios replayed once, and hand-made runs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../../../src/scenario/parse.js';
import { LabelBook } from '../../../src/scenario/replay/labels.js';
import { runScenario, type AssertionResult, type RunResult } from '../../../src/scenario/replay/runner.js';
import type { Scenario } from '../../../src/scenario/types.js';
import { Marks } from '../../../src/trace/marks.js';
import { Trace, type TraceEvent } from '../../../src/trace/trace.js';

export const FIXTURES = join(__dirname, 'fixtures');

export function parseFixture(name: string, text = readFileSync(join(FIXTURES, name), 'utf8')): Scenario {
  const p = parseScenario(text, `spec/report/render/fixtures/${name}`);
  if (!p.ok) throw new Error(`fixture ${name} does not parse: ${JSON.stringify(p.errors)}`);
  return p.scenario;
}

const runs = new Map<string, RunResult>();

/** The fixture replayed (once per test file). */
export function runFixture(name: string): RunResult {
  let r = runs.get(name);
  if (r === undefined) {
    r = runScenario(parseFixture(name));
    if (r.setupError !== undefined) throw new Error(`fixture ${name}: ${r.setupError}`);
    runs.set(name, r);
  }
  return r;
}

/** A run made by hand: the events as given, for traces the simulator does not (yet) produce. */
export function syntheticRun(
  events: readonly TraceEvent[],
  opts: {
    members?: number;
    durationS?: number;
    labels?: Record<string, bigint>;
    description?: string;
    assertions?: AssertionResult[];
  } = {},
): RunResult {
  const text = [
    'name: synthetic',
    ...(opts.description === undefined ? [] : [`description: ${JSON.stringify(opts.description)}`]),
    `cluster: { members: ${opts.members ?? 3} }`,
    `duration: ${opts.durationS ?? 10}s`,
    'steps: []',
    '',
  ].join('\n');
  const scenario = parseFixture('synthetic.yaml', text);
  const trace = new Trace();
  for (const e of events) trace.emit(e);
  const labels = new LabelBook();
  for (const [label, id] of Object.entries(opts.labels ?? {})) labels.bind(label, id);
  const assertions = opts.assertions ?? [];
  return {
    scenario,
    seed: scenario.seed,
    profile: scenario.profile,
    assertions,
    setupError: undefined,
    trace,
    marks: new Marks(),
    labels,
    cluster: undefined,
    passed: assertions.every((a) => a.passed),
  };
}

/** Every trace line, in order. */
export const linesOf = (r: RunResult): string[] => r.trace.lines();
