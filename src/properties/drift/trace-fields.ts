import type { Micros } from '../../clock/time.js';
import { fieldsOf, type TraceEvent } from '../../trace/trace.js';

/** An event's `expiry` (µs; FOREVER for a lease no lessor will expire). */
export function expiryOf(e: TraceEvent): Micros {
  const v = fieldsOf(e).expiry;
  if (typeof v !== 'number') throw new Error(`trace: ${e.kind} at ${e.t} has no expiry field`);
  return v;
}

/** A numeric field (remaining=, ttl=, extend= in µs, count=). */
export function numberField(e: TraceEvent, name: string): number {
  const v = fieldsOf(e)[name];
  if (typeof v !== 'number') throw new Error(`trace: ${e.kind} at ${e.t} has no numeric ${name} field`);
  return v;
}
