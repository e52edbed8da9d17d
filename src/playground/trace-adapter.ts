/**
 * The playground's helpers for trace events: what kind, which lease, a field as the trace line prints it
 * or as a time. The state fold, the picture's hot path, reads fields typed instead, narrowing on `e.kind`.
 */
import type { Micros } from '../clock/time.js';
import { fieldsOf, formatEvent, styledField, type TraceEvent } from '../trace/trace.js';

export type { TraceEvent };

export const eventTime = (e: TraceEvent): Micros => e.t;
export const eventKind = (e: TraceEvent): string => e.kind;
export const eventMember = (e: TraceEvent): string => e.member;
export const eventLease = (e: TraceEvent): bigint | undefined => e.lease;
export const eventLine = (e: TraceEvent): string => formatEvent(e);

/** A field as the trace line prints it, or undefined when the event has none by that name. */
export function eventField(e: TraceEvent, name: string): string | undefined {
  const v = fieldsOf(e)[name];
  if (v === undefined) return undefined;
  return styledField(name, v) ?? (Array.isArray(v) ? v.join(',') : String(v));
}

/** A lessor's `expiry` field in µs; Infinity for forever (a non-primary), undefined when absent. */
export function eventExpiry(e: TraceEvent): Micros | undefined {
  const v = fieldsOf(e).expiry;
  return typeof v === 'number' ? v : undefined;
}
