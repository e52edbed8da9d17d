/**
 * One run of a campaign: the schedule as a scenario (member faults and `pause: { app: NAME, for: … }`
 * steps) served by serveApps on free loopback ports with the programs beside it, judged by the holder
 * monitors against the simulated cluster's own truth of when each lease ended.
 */
import type { AppExit } from '../../apps/app-runner.js';
import type { Violation } from '../../properties/index.js';
import { parseScenario } from '../../scenario/parse.js';
import { serveApps } from '../../serve/serve-apps.js';
import { scenarioText, type Schedule } from './schedule.js';

export interface AppUnderTest {
  readonly name: string;
  /** A shell command line, run by /bin/sh -c in its own process group. */
  readonly command: string;
}

export interface RunOutcome {
  readonly violations: readonly Violation[];
  readonly exits: readonly AppExit[];
  readonly wallMs: number;
}

/** Runs the programs under the schedule; resolves once serve and every program have ended. */
export async function runServed(name: string, schedule: Schedule, apps: readonly AppUnderTest[]): Promise<RunOutcome> {
  const parsed = parseScenario(scenarioText(name, schedule), name);
  if (!parsed.ok) throw new Error(`app-check: the drawn scenario does not parse: ${parsed.errors[0]?.message}`);
  const t0 = performance.now();
  const r = await serveApps(
    parsed.scenario,
    apps.map((a) => ({ name: a.name, command: '/bin/sh', args: ['-c', a.command] })),
  );
  return { violations: r.violations, exits: r.exits, wallMs: performance.now() - t0 };
}
