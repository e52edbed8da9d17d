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
import { AppTruth } from '../apps/app-truth.js';
import { actOnApps } from '../scenario/replay/app-hook.js';
import { appEvent, recordedActor } from './app-inputs.js';

export function replayServed(scenario: Scenario, opts: RunOptions, record: ServedRecord): RunResult {
  const durationUs = Math.min(scenario.durationUs, record.endUs ?? record.inputs.at(-1)?.t ?? 0);
  // Steps after the instant serve stopped at never ran there.
  const steps = scenario.steps.filter((s) => s.atUs <= durationUs);
  const withApps = record.inputs.some((i) => i.kind === 'app' || i.kind === 'app-step');
  const run = startScenario(
    { ...scenario, durationUs, steps },
    {
      ...opts,
      onCluster: (c) => {
        opts.onCluster?.(c);
        if (withApps)
          actOnApps(
            c,
            recordedActor(record.inputs, () => c.now()),
          );
      },
    },
  );
  if (withApps) new AppTruth(run.trace);
  run.advanceTo(0);
  const cluster = run.cluster;
  if (cluster === undefined || run.done) return run.finish();
  const session = new ServeSession(cluster, clusterIds(cluster.names), NO_SINK, {
    version: etcdVersionOf(record.header.profile),
  });
  for (const input of record.inputs) {
    run.advanceTo(input.t);
    // A program's exit at serve's last instant is traced after the run's end, as serve traced it.
    if (input.kind === 'app') {
      run.trace.emit(appEvent(input));
      continue;
    }
    if (run.done) break;
    if (input.kind !== 'app-step') session.apply(input);
  }
  return run.finish();
}
