/**
 * An emitter turns trace events into signals. Components never call the recorder: signals only observe
 * the trace, so recording them cannot change a run. A new signal (a holder's TTL-remaining gauge fed by
 * its periodic TimeToLive, its `lease.heartbeat` span) is one more emitter reading that component's events.
 */
import type { Micros } from '../clock/time.js';
import type { TraceEvent } from '../trace/trace.js';
import type { FamilyDef } from './families.js';
import type { SignalStore } from './store.js';

export interface Emitter {
  /** The metric families this emitter may write; names must be unique across emitters. */
  readonly families: readonly FamilyDef[];
  /** Every trace event, in trace order. */
  onEvent(e: TraceEvent, store: SignalStore): void;
  /** The end of the recorded time: close what is still open (spans). */
  finish?(endUs: Micros, store: SignalStore): void;
}

/** Members are the processes that run raft; their names are n1, n2, … */
export const isMemberName = (name: string): boolean => /^n\d+$/.test(name);
