import type { Scenario } from '../types.js';
import { startScenario } from './stepwise-driver.js';
import type { RunOptions, RunResult } from './run-result.js';

/**
 * Replays a scenario: builds its cluster, performs each step at its virtual time (same-instant steps in
 * file order), evaluates every `expect` after all other events of its instant, and runs to the end.
 * Everything that happens is in the returned trace; nothing in the scenario can make this throw. Only a
 * call that does not fit the file throws: a `user:<name>` holder the options do not supply, or one given to
 * this synchronous replay (`MissingUserHolderError`).
 */
export function runScenario(scenario: Scenario, opts: RunOptions = {}): RunResult {
  return startScenario(scenario, opts).finish();
}
