import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import type { TraceEvent } from '../../trace/trace.js';

/** An `expiry=` field back to µs: `forever` is FOREVER; `12.345678` is read digit by digit, exactly. */
export function expiryOf(e: TraceEvent): Micros {
  const v = e.fields?.['expiry'];
  if (v === 'forever') return FOREVER;
  if (typeof v !== 'string') throw new Error(`trace: ${e.kind} at ${e.t} has no expiry field`);
  const neg = v.startsWith('-');
  const [s, frac = ''] = (neg ? v.slice(1) : v).split('.');
  const us = Number(s) * MICROS_PER_SECOND + Number(frac.padEnd(6, '0').slice(0, 6));
  return neg ? -us : us;
}

/** A numeric field (remaining=, ttl=, extend=, count=). */
export function numberField(e: TraceEvent, name: string): number {
  const v = e.fields?.[name];
  if (typeof v !== 'number') throw new Error(`trace: ${e.kind} at ${e.t} has no numeric ${name} field`);
  return v;
}
