/**
 * K2 no renew after revoke: once a member has applied revoke(L), it never renews L again. A renewal
 * after the revoke is acknowledged to a client that now believes in a lease whose keys are gone
 * (C3, etcd-io/etcd#20590).
 */
import { formatSeconds } from '../../clock/time.js';
import { expectAt } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { ExpectCandidate, Violation } from './violation.js';

export const noRenewAfterRevoke: Monitor = {
  name: 'no-renew-after-revoke',
  check(view) {
    const found: Violation[] = [];
    for (const id of view.leases()) {
      const revokedOn = new Map<string, number>();
      const idx = view.ofLease(id);
      for (let k = 0; k < idx.length; k++) {
        const i = idx[k]!;
        const e = view.at(i);
        if (e.kind === 'lease-revoke' && !revokedOn.has(e.member)) revokedOn.set(e.member, e.t);
        if (e.kind !== 'lease-renew' || !revokedOn.has(e.member)) continue;
        found.push(
          view.violation(
            'no-renew-after-revoke',
            i,
            `${e.member} renewed lease ${view.labelOf(id) ?? id} at ${formatSeconds(e.t)}` +
              ` after applying its revoke at ${formatSeconds(revokedOn.get(e.member)!)}`,
            ackExpects(view, id, idx.slice(k + 1)),
          ),
        );
        break;
      }
    }
    return earliest(found);
  },
};

/** The client that received the bad renewal still believes in the lease. */
function ackExpects(view: RunView, id: bigint, after: readonly number[]): ExpectCandidate[] {
  const lease = view.labelOf(id);
  if (lease === undefined) return [];
  const recv = after
    .map((i) => view.at(i))
    .find((e) => (e.kind === 'client-keepalive-recv' || e.kind === 'client-keepalive-once-recv') && e.fields.ttl > 0);
  if (recv === undefined) return [];
  const out: ExpectCandidate[] = [];
  if (recv.kind === 'client-keepalive-recv')
    out.push(expectAt(recv.t, { form: 'keepalive-alive', lease, client: recv.member, alive: false }));
  out.push(expectAt(recv.t, { form: 'lease-exists', lease, exists: true }));
  return out;
}
