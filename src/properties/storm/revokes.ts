import type { Micros } from '../../clock/time.js';
import type { TraceEvent } from '../../trace/trace.js';
import { PrimaryTracker } from '../drift/primary.js';

/** The instant each lease was revoked: its `lease-revoke` on the current primary (the first, if several). */
export function primaryRevokes(events: readonly TraceEvent[]): Map<bigint, Micros> {
  const primary = new PrimaryTracker();
  const out = new Map<bigint, Micros>();
  for (const e of events) {
    primary.feed(e);
    if (e.kind === 'lease-revoke' && e.lease !== undefined && primary.isCurrent(e.member) && !out.has(e.lease))
      out.set(e.lease, e.t);
  }
  return out;
}
