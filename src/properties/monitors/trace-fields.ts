/** Typed readers of trace fields that the monitors share. */
import type { Micros } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import type { EventOf, ExpiryKind } from '../../trace/trace.js';

/** An event's lease deadline in µs; undefined for a lease no lessor will expire. */
export function expiryOf(e: EventOf<ExpiryKind>): Micros | undefined {
  const x = e.fields.expiry;
  return x === FOREVER ? undefined : x;
}
