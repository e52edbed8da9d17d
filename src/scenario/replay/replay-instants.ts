import { RunStopped } from '../../clock/run-guard.js';
import { Scheduler } from '../../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { Cluster } from '../../cluster/cluster.js';
import type { SettleGate } from '../../holder/index.js';
import { groupByTime } from '../group-by-time.js';
import type { Scenario } from '../types.js';
import { evaluate } from './assertions.js';
import { clusterConfigOf } from './cluster-config.js';
import { describeAssertion } from './describe.js';
import { livelockThresholdOf } from './livelock.js';
import type { RunOptions, RunRecord, RunResult } from './run-result.js';
import { StepExecutor } from './step-executor.js';
import { runStopOf } from './stop.js';

/** The cluster boots this long before the scenario's time 0, so n1 leads and is primary at 0. */
export const BOOTSTRAP_US: Micros = MICROS_PER_SECOND;

/** How far the replay wants virtual time run before it goes on. */
export interface RunTo {
  readonly cluster: Cluster;
  readonly untilUs: Micros;
}

/**
 * The replay as a generator: it builds the cluster, has the StepExecutor perform each instant's steps,
 * evaluates its expectations, and yields each virtual time it needs the cluster run to; the driver
 * (sync-driver, async-driver for user holders, stepwise-driver for the playground) runs it there. A guard
 * that trips in the driver is thrown back in, and the replay ends with a stopped result.
 */
export function* replayInstants(
  scenario: Scenario,
  opts: RunOptions,
  gate: SettleGate | undefined,
  record: RunRecord,
): Generator<RunTo, RunResult, void> {
  const cfg = clusterConfigOf(scenario, record.profile, record.seed);
  if (typeof cfg === 'string') return record.result(cfg);
  const sched = new Scheduler(-BOOTSTRAP_US);
  let cluster: Cluster;
  try {
    cluster = new Cluster(cfg, { sched, trace: record.trace, marks: record.marks, observer: opts.observer });
  } catch (e) {
    // Settings the parser let through but etcd would refuse at start-up: report, never crash.
    return record.result(`the cluster cannot start with these settings: ${e instanceof Error ? e.message : String(e)}`);
  }
  record.cluster = cluster;
  opts.onCluster?.(cluster);
  sched.setGuard({ maxEventsAtOneInstant: livelockThresholdOf(scenario), ...opts.guard });
  try {
    yield { cluster, untilUs: 0 };
    const first = cluster.leader();
    if (first?.name !== 'n1' || !first.lessor.isPrimary()) {
      return record.result(
        `the cluster did not elect n1 within ${BOOTSTRAP_US / MICROS_PER_SECOND}` +
          ` s before time 0 (check latency and fsync)`,
      );
    }
    const users = { fns: opts.userHolders ?? {}, gate, failed: (m: string) => record.holderErrors.push(m) };
    const executor = new StepExecutor(
      cluster,
      record.trace,
      record.labels,
      record.profile,
      cfg.bugs,
      scenario.alerts,
      users,
      opts.clientEndpoints ?? 'all',
    );
    record.executor = executor;
    for (const [at, steps] of groupByTime(scenario.steps)) {
      yield { cluster, untilUs: at };
      for (const s of steps) if (s.kind !== 'expect') executor.perform(s);
      yield { cluster, untilUs: at }; // what those steps set off at this same instant
      for (const s of steps) {
        if (s.kind !== 'expect') continue;
        const v = evaluate(s.assertion, executor);
        const text = describeAssertion(s.assertion);
        record.assertions.push({ step: s, atUs: at, passed: v.pass, text, got: v.got });
        executor.emit('sim', v.pass ? 'expect-pass' : 'expect-fail', { line: s.pos.line, expect: text, got: v.got });
      }
    }
    yield { cluster, untilUs: Math.max(scenario.durationUs, cluster.now()) };
    return record.result(undefined);
  } catch (e) {
    if (e instanceof RunStopped) return record.result(undefined, runStopOf(e, record.trace));
    throw e;
  }
}
