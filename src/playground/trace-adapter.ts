/**
 * The playground's only window onto trace events: what kind, which lease, a field as text or as a time.
 * Everything else in src/playground reads events through these, so a change to TraceEvent's shape is
 * fixed here alone.
 */
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import { formatEvent, type TraceEvent } from '../trace/trace.js';

export type { TraceEvent };

export const eventTime = (e: TraceEvent): Micros => e.t;
export const eventKind = (e: TraceEvent): string => e.kind;
export const eventMember = (e: TraceEvent): string => e.member;
export const eventLease = (e: TraceEvent): bigint | undefined => e.lease;
export const eventLine = (e: TraceEvent): string => formatEvent(e);

/** A field as the trace line prints it, or undefined when the event has none by that name. */
export function eventField(e: TraceEvent, name: string): string | undefined {
  const v = (e.fields as Record<string, unknown> | undefined)?.[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(',') : String(v);
}

/**
 * A lessor's `expiry` field ("12.505000", or "forever" on a non-primary) in µs; Infinity for forever,
 * undefined when absent or not a time.
 */
export function eventExpiry(e: TraceEvent): Micros | undefined {
  const s = eventField(e, 'expiry');
  if (s === undefined) return undefined;
  if (s === 'forever') return Number.POSITIVE_INFINITY;
  const m = /^(-?)(\d+)\.(\d{6})$/.exec(s);
  if (m === null) return undefined;
  const us = Number(m[2]) * MICROS_PER_SECOND + Number(m[3]);
  return m[1] === '-' ? -us : us;
}
