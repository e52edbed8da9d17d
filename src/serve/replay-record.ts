/**
 * `run FILE --input LOG`: a served run again, in-process and without sockets. The record's inputs enter the
 * same scenario at the same virtual instants, through the same session, so the trace (and its hash) is the
 * served run's. The replay ends where serve stopped.
 */
import { startScenario, type RunOptions, type RunResult } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import { clusterIds } from './ids.js';
import type { ServedRecord } from './inputs.js';
import { NO_SINK, ServeSession } from './session.js';
import { etcdVersionOf } from './version.js';

export function replayServed(scenario: Scenario, opts: RunOptions, record: ServedRecord): RunResult {
  const durationUs = Math.min(scenario.durationUs, record.endUs ?? record.inputs.at(-1)?.t ?? 0);
  // Steps after the instant serve stopped at never ran there.
  const steps = scenario.steps.filter((s) => s.atUs <= durationUs);
  const run = startScenario({ ...scenario, durationUs, steps }, opts);
  run.advanceTo(0);
  const cluster = run.cluster;
  if (cluster === undefined || run.done) return run.finish();
  const session = new ServeSession(cluster, clusterIds(cluster.names), NO_SINK, {
    version: etcdVersionOf(record.header.profile),
  });
  for (const input of record.inputs) {
    run.advanceTo(input.t);
    if (run.done) break;
    session.apply(input);
  }
  return run.finish();
}
