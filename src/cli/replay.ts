/**
 * How the CLI replays one scenario: with the --max-events / --timeout guard, a progress line on a
 * terminal's stderr for long replays (never under --json, never in a pipe), and a stopped run's one-line
 * message on stderr.
 */
import { runScenario, BOOTSTRAP_US, type RunOptions, type RunResult } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import type { CliIO } from './io.js';
import type { ServedRecord } from '../serve/inputs.js';
import { replayServed } from '../serve/replay-record.js';
import { guardFor, stopLine, type Limits } from './limits.js';
import { PROGRESS_AFTER_MS, ReplayProgress } from './progress.js';

export interface ReplayCli {
  readonly limits: Limits;
  /** --json: machine-readable output, so no progress line. */
  readonly json: boolean;
  /** --input: the served run to replay (its inputs enter the scenario as they did when served). */
  readonly served?: ServedRecord;
}

/** LESSOR_SIM_PROGRESS_AFTER_MS overrides the one-second delay before progress shows (tests use 0). */
function progressDelayMs(): number {
  const v = process.env.LESSOR_SIM_PROGRESS_AFTER_MS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : PROGRESS_AFTER_MS;
}

export function replay(s: Scenario, opts: RunOptions, cli: ReplayCli, io: CliIO): RunResult {
  const err = process.stderr;
  const progress =
    io.errIsTTY && !cli.json
      ? new ReplayProgress(
          s.file,
          -BOOTSTRAP_US,
          s.durationUs,
          { write: (t) => err.write(t), columns: err.columns || 80 },
          Date.now,
          progressDelayMs(),
        )
      : undefined;
  const guard = guardFor(cli.limits, Date.now, progress === undefined ? undefined : (t, n) => progress.update(t, n));
  let r: RunResult;
  try {
    r =
      cli.served === undefined
        ? runScenario(s, { ...opts, guard })
        : replayServed(
            s,
            { ...opts, guard, seed: cli.served.header.seed, profile: cli.served.header.profile },
            cli.served,
          );
  } finally {
    progress?.clear();
  }
  const stopped = stopLine(r);
  if (stopped !== undefined) io.err(stopped);
  return r;
}
