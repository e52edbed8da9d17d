import { RunStopped } from '../../clock/run-guard.js';
import { runUntilSettled, SettleGate } from '../../holder/index.js';
import type { Scenario } from '../types.js';
import { replayInstants } from './replay-instants.js';
import { RunRecord, type RunOptions, type RunResult } from './run-result.js';
import { throwMissingUserHolder } from './user-holders.js';

/**
 * `runScenario` for scenarios with holders written as async functions (`strategy: user:<name>` and
 * `opts.userHolders`): after every event that settled one of their promises, their continuations run
 * before virtual time moves on. Same seed, same trace.
 */
export async function runScenarioAsync(scenario: Scenario, opts: RunOptions = {}): Promise<RunResult> {
  const gate = new SettleGate();
  throwMissingUserHolder(scenario, opts, gate);
  const replay = replayInstants(scenario, opts, gate, new RunRecord(scenario, opts));
  for (let r = replay.next(); ; ) {
    if (r.done === true) return r.value;
    try {
      await runUntilSettled(r.value.cluster.sched, r.value.untilUs, gate);
      r = replay.next();
    } catch (e) {
      if (!(e instanceof RunStopped)) throw e;
      r = replay.throw(e);
    }
  }
}
