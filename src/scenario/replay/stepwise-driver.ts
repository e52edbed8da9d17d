import { RunStopped } from '../../clock/run-guard.js';
import type { Micros } from '../../clock/time.js';
import type { Cluster } from '../../cluster/cluster.js';
import type { Trace } from '../../trace/trace.js';
import type { Scenario } from '../types.js';
import { replayInstants } from './replay-instants.js';
import { RunRecord, type RunOptions, type RunResult } from './run-result.js';
import type { ClientView } from './step-executor.js';
import { throwMissingUserHolder } from './user-holders.js';

/**
 * A replay that can stop at any virtual instant and go on later (the playground plays one this way).
 * `advanceTo(a)` then `advanceTo(b)` leaves exactly the state and trace of `advanceTo(b)`: the scheduler
 * only moves time by popping events, so stopping in between changes nothing.
 */
export interface ScenarioRun {
  /** Performs every step at or before `t` and runs the cluster to `t` (never past the scenario's end). */
  advanceTo(t: Micros): void;
  /** Where the replay stands: the cluster's clock, or the scenario's end once finished. */
  readonly now: Micros;
  readonly endUs: Micros;
  readonly done: boolean;
  readonly cluster: Cluster | undefined;
  readonly trace: Trace;
  clients(): ClientView[];
  /** Runs to the end and returns the result; further calls return the same result. */
  finish(): RunResult;
  /** The result so far (assertions evaluated up to `now`). */
  result(): RunResult;
}

export function startScenario(scenario: Scenario, opts: RunOptions = {}): ScenarioRun {
  throwMissingUserHolder(scenario, opts, undefined);
  const record = new RunRecord(scenario, opts);
  const replay = replayInstants(scenario, opts, undefined, record);
  let r = replay.next();
  const endUs = scenario.durationUs;
  // Runs the cluster toward each time the replay asks for, never past `t`; the result once it has ended.
  const drive = (t: Micros): RunResult | undefined => {
    while (r.done !== true) {
      const { cluster, untilUs } = r.value;
      try {
        if (untilUs > t) {
          if (t > cluster.now()) cluster.runUntil(t);
          return undefined;
        }
        cluster.runUntil(untilUs);
        r = replay.next();
      } catch (e) {
        if (!(e instanceof RunStopped)) throw e;
        r = replay.throw(e);
      }
    }
    return r.value;
  };
  return {
    advanceTo: (t) => {
      drive(Math.min(t, endUs));
    },
    get now() {
      const c = record.cluster;
      if (c === undefined) return endUs;
      return r.done === true && r.value.stopped === undefined ? Math.max(endUs, c.now()) : c.now();
    },
    endUs,
    get done() {
      return r.done === true;
    },
    get cluster() {
      return record.cluster;
    },
    trace: record.trace,
    clients: () => record.executor?.clientViews() ?? [],
    // Driven without a bound, the replay always ends.
    finish: () => drive(Infinity)!,
    result: () => (r.done === true ? r.value : record.result(undefined)),
  };
}
