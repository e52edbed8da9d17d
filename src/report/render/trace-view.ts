import type { Micros } from '../../clock/time.js';
import { formatEvent, type TraceEvent } from '../../trace/trace.js';
import type { Mark } from './model.js';

/**
 * The trace as the extractors read it: events with their formatted lines, the cluster's member names,
 * the time range, and which events some extractor has drawn (`claim`); the rest become plain ticks.
 */
export class TraceView {
  readonly lines: readonly string[];
  private readonly claimedIdx = new Set<number>();

  constructor(
    readonly events: readonly TraceEvent[],
    readonly members: readonly string[],
    readonly startUs: Micros,
    readonly endUs: Micros,
  ) {
    this.lines = events.map(formatEvent);
  }

  isMember(name: string): boolean {
    return this.members.includes(name);
  }

  claim(i: number): void {
    this.claimedIdx.add(i);
  }

  claimed(i: number): boolean {
    return this.claimedIdx.has(i);
  }

  mark(i: number, variant?: string): Mark {
    const e = this.events[i]!;
    return variant === undefined
      ? { t: e.t, kind: e.kind, line: this.lines[i]! }
      : { t: e.t, kind: e.kind, line: this.lines[i]!, variant };
  }
}
