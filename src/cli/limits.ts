/**
 * `--max-events N` and `--timeout D` for every command that replays: parsed into the run guard the
 * simulation enforces, and a stopped run turned into its one-line message and exit code.
 */
import type { RunGuard } from '../clock/run-guard.js';
import { formatSeconds } from '../clock/time.js';
import { formatDuration, parseDuration } from '../scenario/duration.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { EXIT } from './exit-codes.js';
import { pastMemoryBudget } from './memory-budget.js';

/** The exit code of a command when a replay was ended by --max-events, --timeout or the livelock guard. */
export const STOPPED_EXIT_CODE = EXIT.stopped;

export interface Limits {
  readonly maxEvents: number | undefined;
  /** Wall-clock milliseconds each replay may take. */
  readonly timeoutMs: number | undefined;
}

export const NO_LIMITS: Limits = { maxEvents: undefined, timeoutMs: undefined };

/** The flags as given, or a message saying what was expected. */
export function parseLimits(maxEvents: string | undefined, timeout: string | undefined): Limits | string {
  let events: number | undefined;
  if (maxEvents !== undefined) {
    if (!/^[1-9]\d*$/.test(maxEvents) || !Number.isSafeInteger(Number(maxEvents)))
      return `--max-events takes a positive integer, got ${JSON.stringify(maxEvents)}`;
    events = Number(maxEvents);
  }
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    const d = parseDuration(timeout);
    if (!d.ok || d.us <= 0)
      return `--timeout takes a positive wall-clock duration such as 30s or 5m, got ${JSON.stringify(timeout)}`;
    timeoutMs = d.us / 1000;
  }
  return { maxEvents: events, timeoutMs };
}

/**
 * The guard for one replay: its event budget, and a poll hook that ends it past its wall-clock timeout
 * or its memory budget (memory-budget.ts) and reports progress. `nowMs` is the real clock, read here in
 * the CLI and never in the simulation.
 */
export function guardFor(
  limits: Limits,
  nowMs: () => number,
  onPoll?: (virtualUs: number, events: number) => void,
): RunGuard {
  const started = nowMs();
  const timeoutMs = limits.timeoutMs;
  return {
    ...(limits.maxEvents !== undefined ? { maxEvents: limits.maxEvents } : {}),
    poll: (virtualUs, events) => {
      onPoll?.(virtualUs, events);
      if (timeoutMs !== undefined && nowMs() - started > timeoutMs)
        return `passed its wall-clock timeout of ${formatDuration(timeoutMs * 1000)} (--timeout)`;
      return pastMemoryBudget();
    },
  };
}

/** The one line a stopped replay ends with, on stderr; undefined for a run that went to its end. */
export function stopLine(r: RunResult): string | undefined {
  const s = r.stopped;
  if (s === undefined) return undefined;
  const why = s.reason === 'max-events' ? `${s.message} (--max-events)` : s.message;
  return (
    `lessor-sim: ${r.scenario.file}: stopped at ${formatSeconds(s.atUs)} s of ` +
    `${formatSeconds(r.scenario.durationUs)} s virtual, after ${s.events} events: ${why}`
  );
}

/** 3 when any replay was stopped, else 1 when any failed, else 0. */
export function exitCodeOf(results: readonly RunResult[]): number {
  if (results.some((r) => r.stopped !== undefined)) return STOPPED_EXIT_CODE;
  return results.every((r) => r.passed) ? EXIT.ok : EXIT.failed;
}
