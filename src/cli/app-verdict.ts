/**
 * The exit code of a run with programs under test (`serve FILE -- CMD`, `--app NAME=CMD`): the
 * scenario's verdict and the holder monitors' come first, then how the programs ended.
 *
 *   0  every expect held, no holder property was violated, and every program exited 0 or was still
 *      running when the run ended (the harness ended it)
 *   1  an expect failed or a holder property (no-stale-write-accepted, no-overlap,
 *      holder-stops-before-revoke) was violated, whatever the programs' exit codes
 *   2  bad usage, including a program that cannot be started (not found, not executable)
 *   3  the run was stopped by --timeout or a guard, and nothing above failed
 *   4  an unexpected error inside lessor-sim
 *   5  expects and properties held, but a program failed: it exited non-zero, or a signal the harness
 *      did not send ended it
 */
import type { AppExit } from '../apps/app-runner.js';
import { EXIT } from './exit-codes.js';

export const APP_FAILED = 5;

export interface AppRunOutcome {
  readonly expectsPassed: boolean;
  /** Holder properties violated by the programs (judgeApps). */
  readonly violations: number;
  /** Each program's last exit (absent: still running when the run ended, then ended by the harness). */
  readonly exits: readonly AppExit[];
  readonly stopped?: boolean;
}

export interface AppVerdict {
  readonly code: number;
  readonly reason: string;
}

const failed = (e: AppExit): boolean => !e.byHarness && (e.code !== 0 || e.signal !== null);

function describe(e: AppExit): string {
  return e.signal !== null ? `${e.app} was killed by ${e.signal}` : `${e.app} exited with code ${e.code}`;
}

export function appVerdict(o: AppRunOutcome): AppVerdict {
  if (!o.expectsPassed || o.violations > 0) {
    const what = [
      ...(o.expectsPassed ? [] : ['an expect failed']),
      ...(o.violations > 0
        ? [`${o.violations} holder propert${o.violations === 1 ? 'y was' : 'ies were'} violated`]
        : []),
    ];
    return { code: EXIT.failed, reason: what.join('; ') };
  }
  const bad = o.exits.filter(failed);
  if (bad.length > 0) return { code: APP_FAILED, reason: bad.map(describe).join('; ') };
  if (o.stopped === true) return { code: EXIT.stopped, reason: 'the run was stopped before its end' };
  return { code: EXIT.ok, reason: 'every expect held, no holder property was violated, every program ended well' };
}

/** The table above, for `serve --help`. */
export const APP_EXIT_CODES_HELP = [
  '  0  every expect held, no holder property was violated, every program exited 0 or ran to the end',
  "  1  an expect failed or a holder property was violated, whatever the programs' exit codes",
  '  2  bad usage, including a program that cannot be started and a step naming a program not given',
  '  3  the run was stopped (SIGINT, SIGTERM, a guard) and nothing above failed',
  '  4  an unexpected error inside lessor-sim',
  '  5  expects and properties held, but a program exited non-zero or was killed by a signal serve',
  '     did not send',
].join('\n');
