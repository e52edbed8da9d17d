/**
 * K4 no resurrection: a member that applied revoke(L) never holds L again — no later grant, promotion,
 * checkpoint, attach or expiry of L on it, and L is not in its lease map at the end, restarts included
 * (etcd-io/etcd#11935: entries re-applied after a restart). A scenario that grants the same explicit ID
 * again is exempt.
 */
import { formatSeconds } from '../../clock/time.js';
import type { TraceKind } from '../../trace/trace.js';
import { leaseExists } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

const HOLDS: ReadonlySet<TraceKind> = new Set([
  'lease-grant',
  'lease-promoted',
  'lease-checkpoint',
  'lease-attach',
  'lease-expired',
]);

export const noResurrection: Monitor = {
  name: 'no-resurrection',
  check(view) {
    const regranted = new Set(
      view.scenario.steps.flatMap((s) => (s.kind === 'grant' && s.id !== undefined ? [s.id] : [])),
    );
    const found: (Violation | undefined)[] = [];
    const revokedOn = new Map<string, Map<bigint, number>>();
    for (const id of view.leases()) {
      if (regranted.has(id)) continue;
      for (const i of view.ofLease(id)) {
        const e = view.at(i);
        let m = revokedOn.get(e.member);
        if (e.kind === 'lease-revoke') {
          if (m === undefined) revokedOn.set(e.member, (m = new Map()));
          if (!m.has(id)) m.set(id, i);
        } else if (HOLDS.has(e.kind) && m?.has(id)) {
          found.push(
            view.violation(
              'no-resurrection',
              i,
              `${e.member} holds lease ${view.labelOf(id) ?? id} again (${e.kind}` +
                `) after revoking it at ${formatSeconds(view.at(m.get(id)!).t)}`,
              leaseExists(view, id, false, [e.t]),
            ),
          );
          break;
        }
      }
    }
    found.push(atEnd(view, revokedOn));
    return earliest(found);
  },
};

function atEnd(view: RunView, revokedOn: ReadonlyMap<string, ReadonlyMap<bigint, number>>): Violation | undefined {
  const c = view.cluster;
  if (c === undefined) return undefined;
  for (const [member, revoked] of revokedOn) {
    const s = c.server(member);
    if (s === undefined) continue;
    for (const [id, r] of revoked) {
      if (s.lessor.lookup(id) === undefined) continue;
      const restart = view.ofKind('member-restart').find((i) => i > r && view.at(i).member === member);
      return view.violation(
        'no-resurrection',
        restart ?? r,
        `${member} holds lease ${view.labelOf(id) ?? id} at the end of ` +
          `the run although it revoked it at ${formatSeconds(view.at(r).t)}`,
        leaseExists(view, id, false, [view.endUs]),
      );
    }
  }
  return undefined;
}
