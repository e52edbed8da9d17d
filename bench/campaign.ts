// Benchmark: a property campaign of 50-step runs (3 members, workload and faults) on one core. Reports
// runs per second per core, the steps left after the model's checks, the mean virtual time per run, and
// where the time goes: generating, drafting the scenario, replaying it, and the monitors (the wall-clock
// monitor replays the runs that jump clocks and were late somewhere).
import fc from 'fast-check';
import { MICROS_PER_SECOND } from '../src/clock/time.js';
import {
  MONITORS,
  PROPERTY_NAMES,
  RunView,
  draftRun,
  draftScenario,
  faultCommands,
  setupArb,
  weighted,
  workloadCommands,
  type GeneratedRun,
} from '../src/properties/index.js';
import { runScenario } from '../src/scenario/replay/runner.js';
import { Trace } from '../src/trace/trace.js';
import { campaignLimit } from './campaign-limit.js';
import { report, type BenchResult } from './report.js';

const STEPS = 50;
const TAIL_US = 8 * MICROS_PER_SECOND;

/** `runs` runs of exactly STEPS generated commands each (a command whose model check fails is skipped). */
export function fiftyStepRuns(runs: number, seed: number): GeneratedRun[] {
  const command = weighted([...workloadCommands(), ...faultCommands()]);
  const run = fc.record({
    setup: setupArb({ members: [3] }),
    commands: fc.array(command, { minLength: STEPS, maxLength: STEPS }),
  });
  return fc.sample(run, { seed, numRuns: runs }).map((r) => ({ ...r, tailUs: TAIL_US }));
}

export function campaignBench(runs = Number(process.env.CAMPAIGN_RUNS ?? 300), seed = 1): BenchResult[] {
  const g0 = performance.now();
  const generated = fiftyStepRuns(runs, seed);
  const generateMs = performance.now() - g0;
  let draftMs = 0;
  let replayMs = 0;
  let monitorMs = 0;
  let steps = 0;
  let virtualUs = 0;
  let violations = 0;
  let events = 0;
  for (const run of generated) {
    const t0 = performance.now();
    const d = draftRun(run);
    const scenario = draftScenario(run.setup, d.steps, d.durationUs, { name: 'bench', file: 'bench.yaml' });
    const t1 = performance.now();
    const result = runScenario(scenario, { trace: new Trace(true, true, false) });
    const t2 = performance.now();
    const view = new RunView(result);
    if (PROPERTY_NAMES.some((p) => MONITORS[p].check(view) !== undefined)) violations++;
    const t3 = performance.now();
    draftMs += t1 - t0;
    replayMs += t2 - t1;
    monitorMs += t3 - t2;
    steps += d.steps.length;
    virtualUs += scenario.durationUs;
    events += result.cluster?.sched.eventsExecuted ?? 0;
  }
  const totalMs = generateMs + draftMs + replayMs + monitorMs;
  const limit = campaignLimit(runs, (generateMs + draftMs) / runs, events / runs);
  return [
    report('campaign (1 core)', {
      figure: (runs * 1000) / totalMs,
      unit: 'runs/s/core',
      limit: limit.runsPerS,
      limitName: 'fixed cost + bare loop',
      target: { atLeast: 0.6 },
      checks: [{ name: 'runs/s/core', value: (runs * 1000) / totalMs, atLeast: 300 }],
      details: {
        runs,
        'steps/run': (steps / runs).toFixed(1),
        'virtual s/run': (virtualUs / runs / MICROS_PER_SECOND).toFixed(1),
        'events/run': Math.round(events / runs),
        'ms/run bare loop': limit.loopMsPerRun.toFixed(2),
        'ms/run generate': (generateMs / runs).toFixed(2),
        'ms/run draft': (draftMs / runs).toFixed(2),
        'ms/run replay': (replayMs / runs).toFixed(2),
        'ms/run monitors': (monitorMs / runs).toFixed(2),
        'runs with a violation': violations,
      },
    }),
  ];
}
