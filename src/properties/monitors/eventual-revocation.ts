/**
 * K16 eventual revocation: on the leader that is primary when the run ends, every lease whose deadline
 * passed is revoked within the expired-lease retry interval, a run-loop tick, a commit and the revoke
 * rate's backlog, counted from the later of its deadline and the last fault. One still held past that
 * was dropped by the revoke loop (B3, etcd-io/etcd#10686) or never looked due (E1).
 */
import { MICROS_PER_SECOND, formatSeconds } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import { leaseExists } from './expects.js';
import type { Monitor } from './monitor.js';
import type { Violation } from './violation.js';

export const eventualRevocation: Monitor = {
  name: 'eventual-revocation',
  check(view) {
    const leader = view.cluster?.leader();
    if (leader === undefined || !leader.lessor.isPrimary()) return undefined;
    // A crashed follower or a partition the leader kept its quorum through does not hold its revokes up.
    const ends = view.faults.map((f) => (f.kind === 'crash' || f.kind === 'partition' ? f.atUs : f.endUs));
    if (ends.includes(Infinity)) return undefined;
    const promoted = view
      .ofKind('lessor-promote')
      .filter((i) => view.at(i).member === leader.name)
      .at(-1);
    if (promoted === undefined) return undefined;
    const calm = Math.max(view.at(promoted).t, ...ends);
    const t = view.timings;
    const leases = leader.lessor.leases().filter((l) => l.expiry !== FOREVER);
    const expiries = leases.map((l) => l.expiry).sort((a, b) => a - b);
    let first: Violation | undefined;
    for (const l of leases) {
      const due = Math.max(l.expiry, calm);
      const backlog = countAtMost(expiries, due);
      const deadline =
        due + t.retryUs + t.loopUs + t.commitSlackUs + Math.ceil((backlog * MICROS_PER_SECOND) / t.revokeRate);
      if (deadline >= view.endUs || (first !== undefined && deadline >= first.atUs)) continue;
      const about = view.ofLease(l.id).filter((i) => view.at(i).member === leader.name);
      const blame = about.filter((i) => view.at(i).kind === 'lease-expired').at(-1) ?? about.at(-1) ?? promoted;
      first = view.violation(
        'eventual-revocation',
        blame,
        `lease ${view.labelOf(l.id) ?? l.id} expired on ${leader.name} at ${formatSeconds(l.expiry)} and was ` +
          `still not revoked by ${formatSeconds(deadline)} with ${leader.name} leading since ${formatSeconds(calm)}`,
        leaseExists(view, l.id, false, [deadline]),
        deadline,
      );
    }
    return first;
  },
};

/** How many of the sorted values are ≤ x. */
function countAtMost(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
