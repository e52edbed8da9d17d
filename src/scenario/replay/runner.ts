/**
 * Replaying a scenario, by driver. The replay itself is one generator (replay-instants.ts) that builds the
 * cluster, has the StepExecutor (step-executor.ts) perform each step, and yields the virtual times it needs
 * the cluster run to; a driver runs the cluster there:
 * - sync-driver.ts: `runScenario`, start to end in one call;
 * - async-driver.ts: `runScenarioAsync`, letting holders written as async functions settle between events;
 * - stepwise-driver.ts: `startScenario`, a replay that stops at any instant and goes on later (playground, serve).
 */
export { runScenario } from './sync-driver.js';
export { runScenarioAsync } from './async-driver.js';
export { startScenario, type ScenarioRun } from './stepwise-driver.js';
export { BOOTSTRAP_US } from './replay-instants.js';
export type { AssertionResult, RunOptions, RunResult } from './run-result.js';
export type { ClientView } from './step-executor.js';
export { MissingUserHolderError, missingUserHolder } from './user-holders.js';
