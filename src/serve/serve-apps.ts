/**
 * The programmatic entry to `serve FILE -- CMD`: one served scenario with programs under test, on free
 * loopback ports, without a terminal. Resolves to the verdict (the exit code `serve` would give), the
 * run's trace and the holder monitors' findings. Rejects with a CliError (its `exitCode` 2) for what the
 * caller got wrong: a program that cannot be started, a step naming a program not given, a taken port.
 */
import type { AppExit, AppLine } from '../apps/app-runner.js';
import type { AppJudgement } from '../apps/judge.js';
import type { Fence } from '../apps/resource-server.js';
import type { AppVerdict } from '../cli/app-verdict.js';
import type { Violation } from '../properties/index.js';
import type { RunResult } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import type { Trace } from '../trace/trace.js';
import type { AppCommand } from './served-apps.js';
import { serveOutcome } from './serve.js';

export type { AppCommand } from './served-apps.js';

export interface ServeAppsOptions {
  /** Overrides the scenario's seed and profile. */
  readonly seed?: number;
  readonly profile?: Scenario['profile'];
  /** The fenced resource's rule (default `lower`; `strict`: the runbook's SQL, `fencing_revision < $1`). */
  readonly fence?: Fence;
  /** Ends the run early, as SIGINT ends `serve` (the verdict then says stopped unless something failed). */
  readonly stop?: AbortSignal;
  /** Each program's output line as it arrives. */
  readonly onAppLine?: (line: AppLine) => void;
  /** Every line `serve` would print (endpoints, verdicts); default: none kept. */
  readonly onOutput?: (line: string) => void;
}

export interface ServeAppsResult {
  /** The exit code `lessor-sim serve` gives for this run, and why. */
  readonly verdict: AppVerdict;
  readonly result: RunResult;
  readonly trace: Trace;
  /** The holder monitors' findings per lock key, and all their violations together. */
  readonly findings: readonly AppJudgement[];
  readonly violations: readonly Violation[];
  /** Each program's last exit. */
  readonly exits: readonly AppExit[];
}

export async function serveApps(
  scenario: Scenario,
  apps: readonly AppCommand[],
  options: ServeAppsOptions = {},
): Promise<ServeAppsResult> {
  if (apps.length === 0) throw new Error('serveApps needs at least one program');
  const say = options.onOutput ?? (() => undefined);
  const out = await serveOutcome(
    scenario,
    {
      host: '127.0.0.1',
      basePort: undefined,
      record: undefined,
      fromFile: true,
      run: {
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.profile !== undefined ? { profile: options.profile } : {}),
      },
      apps,
      ...(options.fence !== undefined ? { fence: options.fence } : {}),
      ...(options.stop !== undefined ? { stop: options.stop } : {}),
      onAppLine: options.onAppLine ?? (() => undefined),
    },
    { out: say, err: say, errIsTTY: false },
  );
  const findings = out.apps?.judgements ?? [];
  return {
    verdict: out.apps?.verdict ?? { code: out.code, reason: 'the run ended before its programs were judged' },
    result: out.result,
    trace: out.result.trace,
    findings,
    violations: findings.flatMap((j) => j.violations),
    exits: out.apps?.exits ?? [],
  };
}
