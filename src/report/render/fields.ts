import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import { fieldsOf, type TraceEvent } from '../../trace/trace.js';

/** Typed reads of trace event fields, forgiving of emitters that change a field's type. */

export function fieldStr(e: TraceEvent, name: string): string | undefined {
  const v = fieldsOf(e)[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(',') : String(v);
}

export function fieldNum(e: TraceEvent, name: string): number | undefined {
  const v = fieldsOf(e)[name];
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function fieldBool(e: TraceEvent, name: string): boolean | undefined {
  const v = fieldsOf(e)[name];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** A lease `expiry` field in µs; undefined for a lease no lessor will expire. */
export function fieldExpiryUs(e: TraceEvent): Micros | undefined {
  const v = fieldsOf(e).expiry;
  return typeof v === 'number' && v !== FOREVER ? v : undefined;
}

/** `12.500000` or `-0.5` → µs, exact for the trace's six decimals (no float rounding of the fraction). */
export function parseSecondsUs(s: string): Micros | undefined {
  const m = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(s.trim());
  if (m === null) {
    const n = Number(s);
    return Number.isFinite(n) ? Math.round(n * MICROS_PER_SECOND) : undefined;
  }
  const us = Number(m[2]) * MICROS_PER_SECOND + Number((m[3] ?? '').padEnd(6, '0'));
  return m[1] === '-' ? -us : us;
}
