import type { RunStopped, StopReason } from '../../clock/run-guard.js';
import { formatSeconds, type Micros } from '../../clock/time.js';
import type { Trace } from '../../trace/trace.js';

/** Why and where a replay was ended before its scenario's end (an event budget, a timeout, a livelock). */
export interface RunStop {
  readonly reason: StopReason;
  readonly atUs: Micros;
  readonly events: number;
  /** The reason in words; for a livelock it names the instant and the event kinds seen there. */
  readonly message: string;
}

/** How many of the most frequent kinds a livelock message names. */
const KINDS_NAMED = 5;

export function runStopOf(e: RunStopped, trace: Trace): RunStop {
  const base = { reason: e.reason, atUs: e.atUs, events: e.events };
  if (e.reason !== 'livelock') return { ...base, message: e.message };
  return { ...base, message: `livelock: ${e.message} (${formatSeconds(e.atUs)} s); ${kindsAt(trace, e.atUs)}` };
}

/** The trace kinds recorded at `t`, most frequent first: what was spinning. */
function kindsAt(trace: Trace, t: Micros): string {
  const counts = new Map<string, number>();
  const events = trace.events;
  for (let i = events.length - 1; i >= 0 && events[i]!.t === t; i--) {
    const k = `${events[i]!.member} ${events[i]!.kind}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  if (counts.size === 0)
    return trace.enabled
      ? 'no traced event at that instant (untraced timers are spinning)'
      : 'the trace is off, so the event kinds are unknown';
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, KINDS_NAMED);
  return `event kinds there: ${top.map(([k, n]) => `${k} ×${n}`).join(', ')}${
    counts.size > KINDS_NAMED ? ` and ${counts.size - KINDS_NAMED} more` : ''
  }`;
}
