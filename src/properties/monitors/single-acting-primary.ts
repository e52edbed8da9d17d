/**
 * K5 single acting primary: every lessor-originated revoke that applies was proposed by a member that
 * was the leader nobody had deposed when its lessor offered the lease. The proposer is the member whose
 * `server-expired-revoke ok=true` reports the revoke applied; its offer is its last `lease-expired` of
 * that lease before. If another member had already been elected in a higher term by then, a deposed
 * leader's lessor revoked it (C4, etcd-io/etcd#15247; A6 for checkpoints, see docs/properties.md).
 */
import { formatSeconds } from '../../clock/time.js';
import { expectAt } from './expects.js';
import { deposedBy, termLedAt } from './leadership.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const singleActingPrimary: Monitor = {
  name: 'single-acting-primary',
  check(view) {
    const found: Violation[] = [];
    for (const i of view.ofKind('server-expired-revoke')) {
      const ok = view.eventOf(i, 'server-expired-revoke');
      if (!ok.fields.ok || ok.lease === undefined || view.explicitRevokes.has(ok.lease)) continue;
      const lease = view.ofLease(ok.lease);
      const offer = lastOffer(view, lease, i, ok.member);
      if (offer === undefined) continue;
      const led = termLedAt(view, ok.member, offer);
      const by = deposedBy(view, ok.member, led?.term ?? 0, offer);
      if (by === undefined) continue;
      const applied = lease.find((k) => view.at(k).kind === 'lease-revoke') ?? i;
      const t = view.at(offer).t;
      found.push(
        view.violation(
          'single-acting-primary',
          applied,
          `${ok.member} (leader of term ${led?.term ?? '?'}) offered lease ${view.labelOf(ok.lease) ?? ok.lease} ` +
            `for revocation at ${formatSeconds(t)} although ${by.member} had been ` +
            `elected in term ${by.term} at ${formatSeconds(by.atUs)}; the revoke applied`,
          [expectAt(t, { form: 'leader', member: ok.member })],
        ),
      );
    }
    return earliest(found);
  },
};

/** The member's last `lease-expired` of the lease before trace index `i`. */
function lastOffer(view: RunView, lease: readonly number[], i: number, member: string): number | undefined {
  for (let n = lease.length - 1; n >= 0; n--) {
    const k = lease[n]!;
    if (k >= i) continue;
    const e = view.at(k);
    if (e.kind === 'lease-expired' && e.member === member) return k;
  }
  return undefined;
}
