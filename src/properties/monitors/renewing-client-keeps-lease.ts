/**
 * K18 a renewing client keeps its lease: a lease that a client has kept alive (a `keepalive` step, not
 * stopped, the channel never closed, the client never paused) for its TTL plus two request timeouts is
 * not revoked by the lessor unless a fault hit the cluster within that window (C4 case 2, C7).
 */
import { formatSeconds } from '../../clock/time.js';
import { MICROS_PER_SECOND } from '../../clock/time.js';
import { instants, leaseEventTimes, leaseExists } from './expects.js';
import { leaseLives } from './lease-lives.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const renewingClientKeepsLease: Monitor = {
  name: 'renewing-client-keeps-lease',
  check(view) {
    const found: Violation[] = [];
    for (const life of leaseLives(view).values()) {
      if (life.revokeIndex === undefined || view.explicitRevokes.has(life.id)) continue;
      const label = view.labelOf(life.id);
      if (label === undefined) continue;
      const t = view.at(life.revokeIndex).t;
      const window = life.ttl * MICROS_PER_SECOND + 2 * view.timings.reqTimeoutUs;
      const client = keptAliveBy(view, label, life.id, t - window, t);
      if (client === undefined || view.faultWithin(t - window, t) !== undefined) continue;
      found.push(
        view.violation(
          'renewing-client-keeps-lease',
          life.revokeIndex,
          `lease ${label} was revoked at ${formatSeconds(t)} although ${client} kept ` +
            `it alive since before ${formatSeconds(t - window)} and nothing failed`,
          leaseExists(view, life.id, true, instants(leaseEventTimes(view, life.id, 'lease-revoke'))),
        ),
      );
    }
    return earliest(found);
  },
};

/** A client with a keep-alive for the lease open over [from, to], never stopped, closed or paused. */
function keptAliveBy(view: RunView, label: string, id: bigint, from: number, to: number): string | undefined {
  for (const s of view.scenario.steps) {
    if (s.kind !== 'keepalive' || s.lease !== label || s.atUs > from) continue;
    const c = s.client;
    const stopped = view.scenario.steps.some(
      (x) =>
        x.atUs <= to &&
        ((x.kind === 'keepalive-stop' && x.client === c && x.lease === label) ||
          (x.kind === 'pause' && x.client === c)),
    );
    const closed = view
      .ofLease(id)
      .some((i) => view.at(i).kind === 'client-keepalive-closed' && view.at(i).member === c && view.at(i).t <= to);
    if (!stopped && !closed) return c;
  }
  return undefined;
}
