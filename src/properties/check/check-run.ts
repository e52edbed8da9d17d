/** Runs a scenario and applies the property monitors to it: the core of every property check. */
import type { RunGuard } from '../../clock/run-guard.js';
import { Trace } from '../../trace/trace.js';
import { runScenario, type RunResult } from '../../scenario/replay/runner.js';
import type { RunStop } from '../../scenario/replay/stop.js';
import type { Scenario } from '../../scenario/types.js';
import type { GeneratedRun } from '../arbitraries/run-arb.js';
import { draftScenario } from '../draft/scenario-draft.js';
import { MONITORS } from '../monitors/all-monitors.js';
import { earliest } from '../monitors/monitor.js';
import { PROPERTY_NAMES, type PropertyName } from '../monitors/property-names.js';
import { RunView } from '../monitors/run-view.js';
import type { Violation } from '../monitors/violation.js';
import { draftRun, type DraftedRun } from './draft-run.js';

export interface CheckOptions {
  /** The properties to check; default all. */
  readonly properties?: readonly PropertyName[];
  /** Name and file the run's scenario gets (they show in counterexamples). */
  readonly name?: string;
  readonly file?: string;
  /** The run's event budget and poll hook: a run they stop is not judged. */
  readonly guard?: RunGuard;
}

export interface CheckVerdict {
  readonly scenario: Scenario;
  readonly result: RunResult;
  /** The earliest violation across the checked properties. */
  readonly violation: Violation | undefined;
  /** The first violation of each property that has one. */
  readonly violations: readonly Violation[];
  /** Set when the run passed its event budget or livelocked; a stopped run has no verdict. */
  readonly stopped: RunStop | undefined;
}

/** Replays a scenario and checks it. */
export function checkScenario(scenario: Scenario, opts: CheckOptions = {}): CheckVerdict {
  // Monitors read events, never the hash: skipping it saves about a quarter of a replay.
  const result = runScenario(scenario, {
    trace: new Trace(true, true, false),
    ...(opts.guard !== undefined ? { guard: opts.guard } : {}),
  });
  const view = new RunView(result);
  const violations: Violation[] = [];
  // A run cut short would look like leases never revoked, keys never deleted: judge only whole runs.
  if (result.setupError === undefined && result.stopped === undefined) {
    for (const p of opts.properties ?? PROPERTY_NAMES) {
      const v = MONITORS[p].check(view);
      if (v !== undefined) violations.push(v);
    }
  }
  return { scenario, result, violation: earliest(violations), violations, stopped: result.stopped };
}

export interface RunCheck extends CheckVerdict {
  readonly drafted: DraftedRun;
}

export const DEFAULT_RUN_NAME = 'property-run';

/** Drafts a generated run into a scenario, replays it and checks it. */
export function checkRun(run: GeneratedRun, opts: CheckOptions = {}): RunCheck {
  const drafted = draftRun(run);
  const name = opts.name ?? DEFAULT_RUN_NAME;
  const scenario = draftScenario(run.setup, drafted.steps, drafted.durationUs, {
    name,
    file: opts.file ?? `${name}.yaml`,
  });
  return { ...checkScenario(scenario, opts), drafted };
}
