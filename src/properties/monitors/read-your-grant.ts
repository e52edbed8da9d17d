/**
 * K7 read your grant: once a client has received a lease's grant response, no renewal or TimeToLive
 * reports the lease missing until a revoke of it has applied somewhere (C2, etcd-io/etcd#13675: a
 * keep-alive to a leader that has not applied the grant yet).
 */
import { formatSeconds } from '../../clock/time.js';
import { ERR_KINDS, ERROR_KINDS, isKindIn, type TraceEvent } from '../../trace/trace.js';
import { expectAt, leaseExists } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { ExpectCandidate, Violation } from './violation.js';

function saysMissing(e: TraceEvent): boolean {
  switch (e.kind) {
    case 'client-keepalive-recv':
    case 'client-keepalive-once-recv':
      return e.fields.ttl <= 0;
    case 'ctl-ok':
      // TTL -1 with a granted TTL is an expired lease not yet revoked (it exists); not found has none.
      return e.fields.op === 'timetolive' && e.fields.ttl === -1 && (e.fields.grantedTTL ?? 0) === 0;
    default:
      return (
        (isKindIn(e, ERR_KINDS) && e.fields?.err === 'ErrLeaseNotFound') ||
        (isKindIn(e, ERROR_KINDS) && e.fields.error === 'ErrLeaseNotFound')
      );
  }
}

export const readYourGrant: Monitor = {
  name: 'read-your-grant',
  check(view) {
    const found: Violation[] = [];
    for (const id of view.leases()) {
      let acked = false;
      for (const i of view.ofLease(id)) {
        const e = view.at(i);
        if (e.kind === 'lease-revoke') break;
        if (e.kind === 'client-grant' || e.kind === 'ctl-granted') acked = true;
        else if (acked && saysMissing(e)) {
          const lease = view.labelOf(id);
          const expects: ExpectCandidate[] = [...leaseExists(view, id, true, [e.t])];
          if (lease !== undefined && e.kind === 'client-keepalive-recv')
            expects.push(expectAt(e.t, { form: 'keepalive-alive', lease, client: e.member, alive: true }));
          found.push(
            view.violation(
              'read-your-grant',
              i,
              `${e.member} was told lease ${lease ?? id} does not exist (${e.kind}) at ` +
                `${formatSeconds(e.t)}, after its grant was acknowledged and before any revoke`,
              expects,
            ),
          );
          break;
        }
      }
    }
    return earliest(found);
  },
};
