/**
 * K1 no early expiry: a lease the lessor revokes is not revoked before the deadline of its last
 * acknowledged grant or renewal (see lease-lives.ts for what "acknowledged" means). Leases a scenario
 * step revokes are the client's business and are skipped. Catches C4, A2, C1.
 */
import { formatSeconds } from '../../clock/time.js';
import { leaseLives } from './lease-lives.js';
import { attachedKeys, expectAt, instants, leaseEventTimes, leaseExists } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { Violation } from './violation.js';

export const noEarlyExpiry: Monitor = {
  name: 'no-early-expiry',
  check(view) {
    const found: Violation[] = [];
    for (const life of leaseLives(view).values()) {
      if (life.revokeIndex === undefined || view.explicitRevokes.has(life.id)) continue;
      const rev = view.at(life.revokeIndex);
      if (rev.t >= life.ackDeadlineUs) continue;
      const at = instants(leaseEventTimes(view, life.id, 'lease-revoke'), life.ackDeadlineUs);
      const expects = [
        ...leaseExists(view, life.id, true, at),
        ...attachedKeys(view, life.id).flatMap((key) =>
          at.map((t) => expectAt(t, { form: 'key-exists', key, exists: true })),
        ),
      ];
      const acked = view.at(life.ackIndex);
      found.push(
        view.violation(
          'no-early-expiry',
          life.revokeIndex,
          `lease ${view.labelOf(life.id) ?? rev.lease} revoked at ${formatSeconds(rev.t)}, before ` +
            `${formatSeconds(life.ackDeadlineUs)}, the deadline of its last acknowledged ` +
            `${acked.kind === 'lease-renew' ? `renewal (by ${acked.member} at ${formatSeconds(acked.t)})` : 'grant'}`,
          expects,
        ),
      );
    }
    return earliest(found);
  },
};
