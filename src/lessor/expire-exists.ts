import type { Micros } from '../clock/time.js';
import type { Lease } from './lease.js';
import type { ReadonlyLeaseIdMap } from './lease-id.js';
import type { LeaseExpiredNotifier } from './lease-queue.js';

/** The notifier is empty. */
export const EMPTY = Symbol('empty');
/** The root belonged to a revoked lease and was popped (lazy deletion); look again. */
export const STALE = Symbol('stale');
/** The root is not due yet. */
export const NOT_DUE = Symbol('not-due');

export type ExpireStatus = Lease | typeof EMPTY | typeof STALE | typeof NOT_DUE;

/**
 * etcd's lessor.expireExists: looks at the earliest notifier entry. A due entry is re-armed at
 * now + retryInterval *before* its lease is handed out, so a lease whose revoke never lands is offered
 * again one retry interval later. Returns the due lease (which the caller still checks for `expired()`).
 */
export function expireExists(
  notifier: LeaseExpiredNotifier,
  leaseMap: ReadonlyLeaseIdMap<Lease>,
  now: Micros,
  retryInterval: Micros,
  /** Bug B3 (no-expired-lease-retry): the due entry is popped, so a failed revoke is never retried. */
  popInsteadOfRearm = false,
): ExpireStatus {
  if (notifier.len() === 0) return EMPTY;
  const item = notifier.poll()!;
  const l = leaseMap.get(item.id);
  if (l === undefined) {
    notifier.unregister();
    return STALE;
  }
  if (now < item.time) return NOT_DUE;
  if (popInsteadOfRearm) notifier.unregister();
  // RegisterOrUpdate of the root's own entry: re-keyed in place.
  else notifier.update(item, now + retryInterval);
  return l;
}
