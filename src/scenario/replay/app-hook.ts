/**
 * Steps on programs under test (`pause: { app }`, `kill`, `restart: { app }`, `cut`, `heal: { app }`)
 * act on real processes and sockets, which only `serve FILE -- CMD` has. The replay stays the same for
 * every driver: it performs such a step at its virtual instant by asking the actor registered for its
 * cluster (serve registers one through RunOptions.onCluster); with none, the step is a step error.
 */
import type { Cluster } from '../../cluster/cluster.js';
import type { Scenario, Step } from '../types.js';
import type { StepReplay } from './step-replay.js';

export type AppAction =
  | { readonly kind: 'pause' | 'resume' | 'kill' | 'restart'; readonly app: string }
  | { readonly kind: 'cut'; readonly app: string; readonly from: readonly string[] }
  | { readonly kind: 'heal'; readonly app: string };

/** Performs the action now; what kept it from acting (no such program, not running), or undefined. */
export type AppActor = (a: AppAction) => string | undefined;

const actors = new WeakMap<Cluster, AppActor>();

export function actOnApps(cluster: Cluster, actor: AppActor): void {
  actors.set(cluster, actor);
}

export const NO_APPS = 'steps on programs under test need one: run lessor-sim serve FILE -- CMD';

/** Asks the cluster's actor to perform `a`; true when it did (a step error says why not). */
export function appAction(r: StepReplay, op: string, a: AppAction): boolean {
  const actor = actors.get(r.cluster);
  const why = actor === undefined ? NO_APPS : actor(a);
  if (why !== undefined) r.stepError(op, `app ${a.app}: ${why}`);
  return why === undefined;
}

/** The steps of a scenario that act on a program under test, with the program each names. */
export function appStepsOf(scenario: Scenario): { readonly step: Step; readonly app: string }[] {
  return scenario.steps.flatMap((step) =>
    'app' in step && typeof step.app === 'string' ? [{ step, app: step.app }] : [],
  );
}
