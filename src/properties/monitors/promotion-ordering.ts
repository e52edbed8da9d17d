/**
 * K6 promotion ordering: a lessor is promoted only after its member applied every entry of earlier
 * terms. Seen from the trace: after member m promotes at p (elected at e ≤ p), m applies revoke(L), yet
 * every offer of L came from other members before e, each of which then crashed before e — so that
 * revoke was in the log before m's term began and should have been applied before the promotion
 * (A2, etcd-io/etcd#6570). Explicitly revoked leases are skipped.
 */
import { formatSeconds } from '../../clock/time.js';
import { leaseExists } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const promotionOrdering: Monitor = {
  name: 'promotion-ordering',
  check(view) {
    const found: Violation[] = [];
    for (const p of view.ofKind('lessor-promote')) {
      const promote = view.at(p);
      const m = promote.member;
      const elected = view
        .ofKind('raft-role')
        .filter((i) => i <= p && view.at(i).member === m && view.eventOf(i, 'raft-role').fields.role === 'leader')
        .at(-1);
      if (elected === undefined) continue;
      const end = nextLoss(view, m, p);
      for (const r of view.ofKind('lease-revoke')) {
        if (r <= p || r >= end) continue;
        const rev = view.at(r);
        if (rev.member !== m || view.explicitRevokes.has(rev.lease!) || !olderTermOnly(view, rev.lease!, r, m, elected))
          continue;
        found.push(
          view.violation(
            'promotion-ordering',
            r,
            `${m} promoted its lessor at ${formatSeconds(promote.t)} and then applied a revoke of ` +
              `${view.labelOf(rev.lease!) ?? rev.lease} proposed in an earlier term ` +
              `(before ${m} was elected at ${formatSeconds(view.at(elected).t)})`,
            leaseExists(view, rev.lease!, false, [promote.t]),
          ),
        );
        break;
      }
    }
    return earliest(found);
  },
};

/** The index at which m stops being primary after p (demote or crash), or the end. */
function nextLoss(view: RunView, m: string, p: number): number {
  let end = view.events.length;
  for (const kind of LOSSES) {
    for (const i of view.ofKind(kind)) {
      if (i <= p || view.at(i).member !== m) continue;
      end = Math.min(end, i);
      break;
    }
  }
  return end;
}

const LOSSES = ['lessor-demote', 'member-crash'] as const;

/**
 * Every lessor offer of the lease before `r` came from a member other than m, before `elected`, and that member crashed
 * before `elected`.
 */
function olderTermOnly(view: RunView, id: bigint, r: number, m: string, elected: number): boolean {
  const offers = view.ofLease(id).filter((i) => i < r && view.at(i).kind === 'lease-expired');
  if (offers.length === 0) return false;
  return offers.every((o) => {
    const by = view.at(o).member;
    if (by === m || o > elected) return false;
    return view.ofKind('member-crash').some((c) => c > o && c < elected && view.at(c).member === by);
  });
}
