/** Readers of a trace event's fields, as the monitors and the views they share read them. */
import type { Micros } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import { fieldsOf, type TraceEvent } from '../../trace/trace.js';

export function field(e: TraceEvent, k: string): unknown {
  return fieldsOf(e)[k];
}

export function numField(e: TraceEvent, k: string): number | undefined {
  const v = fieldsOf(e)[k];
  return typeof v === 'number'
    ? v
    : typeof v === 'string' && v !== '' && !Number.isNaN(Number(v))
      ? Number(v)
      : undefined;
}

/** An `expiry` field in µs; undefined for a lease no lessor will expire. */
export function expiryField(e: TraceEvent): Micros | undefined {
  const v = fieldsOf(e).expiry;
  return typeof v === 'number' && v !== FOREVER ? v : undefined;
}

export function listField(e: TraceEvent, k: string): readonly string[] {
  const v = fieldsOf(e)[k];
  return Array.isArray(v) ? v.map(String) : [];
}
