/**
 * A guided tour of a scenario: stops at the instants where the narrated timeline says something, each
 * with those lines; the scenario's description opens it and a free playground closes it.
 */
import type { Micros } from '../clock/time.js';
import { narrate } from '../report/narrate.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { eventTime } from './trace-adapter.js';

export interface LessonStop {
  readonly atUs: Micros;
  readonly lines: readonly string[];
}

export interface Lesson {
  readonly title: string;
  readonly intro: string;
  readonly stops: readonly LessonStop[];
}

/** Narrated lines closer together than this are one stop (a grant and its answer, a revoke and its delete). */
const MERGE_US = 100_000;

export function lessonOf(result: RunResult): Lesson {
  const stops: Array<{ atUs: Micros; lines: string[] }> = [];
  for (const line of narrate(result)) {
    const m = /^\s*(-?\d+(?:\.\d+)?) s\s/.exec(line);
    const last = stops.at(-1);
    if (m === null) {
      last?.lines.push(line);
      continue;
    }
    const at = Math.round(Number(m[1]) * 1_000_000);
    if (at < 0) continue;
    if (last !== undefined && at - last.atUs <= MERGE_US) {
      last.lines.push(line.trim());
      continue;
    }
    stops.push({ atUs: at, lines: [line.trim()] });
  }
  // A stop sits at the last event it narrates (lines show milliseconds; events fall within ±0.5 ms).
  const times = result.trace.events.map(eventTime);
  const settled = stops.map((s) => ({
    atUs: lastEventBefore(times, (lastTime(s.lines) ?? s.atUs) + 500),
    lines: s.lines,
  }));
  return {
    title: result.scenario.name,
    intro: result.scenario.description?.trim() ?? `${result.scenario.name}: no description in the file.`,
    stops: settled,
  };
}

function lastTime(lines: readonly string[]): Micros | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^(-?\d+(?:\.\d+)?) s\s/.exec(lines[i]!);
    if (m !== null) return Math.round(Number(m[1]) * 1_000_000);
  }
  return undefined;
}

/** The time of the last event before `limit` (times ascending), or `limit` itself when there is none. */
function lastEventBefore(times: readonly Micros[], limit: Micros): Micros {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? Math.max(0, limit) : Math.max(0, times[lo - 1]!);
}
