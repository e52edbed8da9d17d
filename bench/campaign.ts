// Benchmark: a property campaign of 50-step runs (3 members, workload and faults) on one core. Reports
// runs per second per core (CPU time, so a loaded machine inflates it less than wall time would), the
// steps left after the model's checks, the mean virtual time per run, where the CPU time goes
// (generating, drafting the scenario, replaying it, the monitors: the wall-clock monitor replays the runs
// that jump clocks and were late somewhere), and the process's memory after 1,000 runs and at the end.
// The judged figures are the first pass, in a process that has run nothing before (target ≥ 150 runs/CPU
// s), and a second pass over the same runs once the JIT has warmed up (≥ 300, its monitors ≤ 0.5 ms/run),
// each with its per-stage split; the warm pass also replays each run's cluster idle for the same virtual
// time (not counted in its figures), to show how much of a replay background ticks and heartbeats are.
// Process CPU time counts V8's helper threads too: a replay's concurrent GC and compiler work goes on while
// the monitors run and lands in their share. The warm pass also prints the monitors' main-thread CPU
// (Linux's per-thread schedstat; "n/a" elsewhere), what the monitors themselves cost.
// CAMPAIGN_RUNS=100000 is the long memory run: RSS at the end should stay within 1.5x of RSS at 1,000;
// CAMPAIGN_SAMPLE_EVERY=N also prints the memory figures every N runs on stderr, to watch it go.
import { readFileSync } from 'node:fs';
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
import type { Scenario } from '../src/scenario/types.js';
import { Trace } from '../src/trace/trace.js';
import { campaignLimit } from './campaign-limit.js';
import { report, type BenchResult } from './report.js';

const STEPS = 50;
const TAIL_US = 8 * MICROS_PER_SECOND;
const EARLY_SAMPLE = 1000;
const MIB = 1024 * 1024;
const SAMPLE_EVERY = Number(process.env.CAMPAIGN_SAMPLE_EVERY ?? 0);

/**
 * Calls `each` on `runs` runs of exactly STEPS generated commands (a command whose model check fails is
 * skipped), generated one at a time: a property that always holds sees the same values fc.sample would
 * return, without holding them all.
 */
export function forEachFiftyStepRun(runs: number, seed: number, each: (run: GeneratedRun) => void): void {
  const command = weighted([...workloadCommands(), ...faultCommands()]);
  const run = fc.record({
    setup: setupArb({ members: [3] }),
    commands: fc.array(command, { minLength: STEPS, maxLength: STEPS }),
  });
  fc.assert(
    fc.property(run, (r) => each({ ...r, tailUs: TAIL_US })),
    { seed, numRuns: runs },
  );
}

/** A second pass over a campaign's runs is only worth its time for the short, default shape. */
const WARM_PASS_MAX_RUNS = 1000;

/** One run as the campaign judges it: drafted, replayed and checked by every monitor, each part timed. */
export interface JudgedRun {
  readonly draftMs: number;
  readonly replayMs: number;
  readonly monitorMs: number;
  /** The monitors' CPU time on the main thread alone (NaN where the OS does not say). */
  readonly monitorMainMs: number;
  readonly violated: boolean;
  readonly steps: number;
  readonly durationUs: number;
  readonly events: number;
  readonly scenario: Scenario;
}

export function judgeRun(run: GeneratedRun): JudgedRun {
  const t0 = cpuMs();
  const d = draftRun(run);
  const scenario = draftScenario(run.setup, d.steps, d.durationUs, { name: 'bench', file: 'bench.yaml' });
  const t1 = cpuMs();
  const result = runScenario(scenario, { trace: new Trace(true, true, false) });
  const t2 = cpuMs();
  const m2 = mainThreadCpuMs();
  const view = new RunView(result);
  const violated = PROPERTY_NAMES.some((p) => MONITORS[p].check(view) !== undefined);
  const m3 = mainThreadCpuMs();
  const t3 = cpuMs();
  return {
    draftMs: t1 - t0,
    replayMs: t2 - t1,
    monitorMs: t3 - t2,
    monitorMainMs: m3 - m2,
    violated,
    steps: d.steps.length,
    durationUs: scenario.durationUs,
    events: result.cluster?.sched.eventsExecuted ?? 0,
    scenario,
  };
}

/**
 * CPU ms of replaying the scenario's cluster with no steps for the same virtual time: what its background
 * raft ticks and heartbeats cost (and its boot), the most that making idle clusters cheap could save.
 */
function idleReplayMs(scenario: Scenario): number {
  const t0 = cpuMs();
  runScenario({ ...scenario, steps: [] }, { trace: new Trace(true, true, false) });
  return cpuMs() - t0;
}

/** CPU ms per run of each stage of a pass: generating, drafting, replaying, the monitors. */
export interface StageSplit {
  readonly generate: number;
  readonly draft: number;
  readonly replay: number;
  readonly monitors: number;
}

/** Sums the stages of a pass's runs; generation is what the pass's total leaves over. */
class StageTimer {
  draftMs = 0;
  replayMs = 0;
  monitorMs = 0;
  monitorMainMs = 0;
  add(j: JudgedRun): void {
    this.monitorMainMs += j.monitorMainMs;
    this.draftMs += j.draftMs;
    this.replayMs += j.replayMs;
    this.monitorMs += j.monitorMs;
  }
  split(runs: number, totalMs: number): StageSplit {
    return {
      generate: (totalMs - this.draftMs - this.replayMs - this.monitorMs) / runs,
      draft: this.draftMs / runs,
      replay: this.replayMs / runs,
      monitors: this.monitorMs / runs,
    };
  }
}

const showSplit = (s: StageSplit): string =>
  [s.generate, s.draft, s.replay, s.monitors].map((ms) => ms.toFixed(2)).join('/');

/** Generates, replays and judges the same runs as the first pass, timing the whole and each stage. */
function warmPass(
  runs: number,
  seed: number,
): { runsPerS: number; split: StageSplit; idleMs: number; monitorMainMs: number } {
  const stages = new StageTimer();
  let idleMs = 0;
  const start = cpuMs();
  forEachFiftyStepRun(runs, seed, (run) => {
    const j = judgeRun(run);
    stages.add(j);
    idleMs += idleReplayMs(j.scenario);
  });
  const totalMs = cpuMs() - start - idleMs;
  return {
    runsPerS: (runs * 1000) / totalMs,
    split: stages.split(runs, totalMs),
    idleMs: idleMs / runs,
    monitorMainMs: stages.monitorMainMs / runs,
  };
}

/** CPU time of the calling thread, ms, from Linux's schedstat (ns); NaN where there is none. */
function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of the whole process (user + system), ms. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function memoryFigures(m: NodeJS.MemoryUsage): string {
  const f = (b: number): string => (b / MIB).toFixed(0);
  return `${f(m.rss)}/${f(m.heapUsed)}/${f(m.external)}/${f(m.arrayBuffers)}`;
}

export function campaignBench(runs = Number(process.env.CAMPAIGN_RUNS ?? 300), seed = 1): BenchResult[] {
  const stages = new StageTimer();
  let steps = 0;
  let virtualUs = 0;
  let violations = 0;
  let events = 0;
  let done = 0;
  let early: NodeJS.MemoryUsage | undefined;
  const start = cpuMs();
  forEachFiftyStepRun(runs, seed, (run) => {
    const j = judgeRun(run);
    stages.add(j);
    if (j.violated) violations++;
    steps += j.steps;
    virtualUs += j.durationUs;
    events += j.events;
    if (++done === EARLY_SAMPLE) early = process.memoryUsage();
    if (SAMPLE_EVERY > 0 && done % SAMPLE_EVERY === 0)
      console.error(
        `campaign: ${done} runs, MiB rss/heap/external/arrayBuffers ${memoryFigures(process.memoryUsage())}`,
      );
  });
  const totalMs = cpuMs() - start;
  const end = process.memoryUsage();
  const cold = stages.split(runs, totalMs);
  // The same runs again in the now-warm process: how much of the figure is the JIT's warm-up.
  const warm = runs <= WARM_PASS_MAX_RUNS ? warmPass(runs, seed) : undefined;
  const limit = campaignLimit(runs, cold.generate + cold.draft, events / runs);
  const memory: Record<string, string> =
    early !== undefined
      ? {
          [`MiB rss/heap/external/arrayBuffers at ${EARLY_SAMPLE}`]: memoryFigures(early),
          'at the end': memoryFigures(end),
          'rss end/early (target <= 1.5)': (end.rss / early.rss).toFixed(2),
        }
      : { 'MiB rss/heap/external/arrayBuffers at the end': memoryFigures(end) };
  const coldPerS = (runs * 1000) / totalMs;
  return [
    report('campaign (1 core)', {
      figure: coldPerS,
      unit: 'runs/CPU s',
      limit: limit.runsPerS,
      limitName: 'fixed cost + bare loop',
      target: { atLeast: 0.6 },
      // The targets: a cold 300-run campaign, its warm second pass, and the warm pass's monitors.
      checks: [
        { name: 'cold runs/CPU s', value: coldPerS, atLeast: 150 },
        ...(warm === undefined
          ? []
          : [
              { name: 'warm runs/CPU s', value: warm.runsPerS, atLeast: 300 },
              { name: 'warm monitors ms/run', value: warm.split.monitors, atMost: 0.5 },
            ]),
      ],
      details: {
        runs,
        'steps/run': (steps / runs).toFixed(1),
        'virtual s/run': (virtualUs / runs / MICROS_PER_SECOND).toFixed(1),
        'events/run': Math.round(events / runs),
        'ms/run bare loop': limit.loopMsPerRun.toFixed(2),
        'ms/run generate/draft/replay/monitors cold': showSplit(cold),
        ...(warm === undefined
          ? {}
          : {
              warm: showSplit(warm.split),
              'warm monitors main-thread ms/run': Number.isNaN(warm.monitorMainMs)
                ? 'n/a'
                : warm.monitorMainMs.toFixed(2),
              'warm ms/run idle cluster replay': warm.idleMs.toFixed(2),
            }),
        'runs with a violation': violations,
        ...memory,
      },
    }),
  ];
}
