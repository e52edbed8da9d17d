/**
 * K13 grant bounds: a grant answered for a requested TTL gets max(requested, minimum TTL), the minimum
 * being ceil(1.5 election timeouts) in whole seconds (etcd-io/etcd#6085), and a request above
 * MaxLeaseTTL = 9e9 s is refused with ErrLeaseTTLTooLarge (F1, etcd-io/etcd#9399).
 */
import { MaxLeaseTTL } from '../../lessor/config.js';
import type { Scenario } from '../../scenario/types.js';
import { expectAt } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { Violation } from './violation.js';
import { grantManyLabel } from '../../scenario/lease-labels.js';

export const grantBounds: Monitor = {
  name: 'grant-bounds',
  check(view) {
    const requested = requestedTtls(view.scenario);
    const found: Violation[] = [];
    for (const i of view.ofKind('ctl-granted')) {
      const e = view.eventOf(i, 'ctl-granted');
      const { label: lease, ttl: got } = e.fields;
      const req = requested.get(lease);
      if (req === undefined) continue;
      if (req > MaxLeaseTTL) {
        found.push(
          view.violation(
            'grant-bounds',
            i,
            `lease ${lease} was granted although its TTL ${req} s is above MaxLeaseTTL`,
            [expectAt(e.t, { form: 'lease-exists', lease, exists: false })],
          ),
        );
        continue;
      }
      const want = Math.max(req, view.timings.minTtlSeconds);
      if (got === want) continue;
      const expect =
        got > want
          ? expectAt(e.t, { form: 'lease-ttl', lease, ttlSeconds: { max: want } })
          : expectAt(e.t, { form: 'lease-ttl', lease, ttlSeconds: { min: want - 1 } });
      found.push(
        view.violation(
          'grant-bounds',
          i,
          `lease ${lease} was granted ${got} s for a request of ${req} s; expected ${want} s`,
          [expect],
        ),
      );
    }
    return earliest(found);
  },
};

/** The TTL each lease label was requested with. */
function requestedTtls(s: Scenario): Map<string, number> {
  const out = new Map<string, number>();
  for (const st of s.steps) {
    if (st.kind === 'grant') out.set(st.lease, st.ttlSeconds);
    else if (st.kind === 'grant-many')
      for (let k = 1; k <= st.count; k++) out.set(grantManyLabel(st.prefix, k), st.ttlSeconds);
  }
  return out;
}
