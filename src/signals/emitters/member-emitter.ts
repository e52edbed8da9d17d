/**
 * etcd's per-member server and lessor metrics. Each member is its own scrape target (label `member`):
 * a crashed or SIGSTOPped member answers no scrape, so its series go stale; a restarted one starts from 0.
 */
import { TTL_BUCKETS } from '../../lessor/metrics.js';
import type { TraceEvent } from '../../trace/trace.js';
import { isMemberName, type Emitter } from '../emitter.js';
import type { FamilyDef } from '../families.js';
import type { SignalStore } from '../store.js';

export const HAS_LEADER = 'etcd_server_has_leader';
export const LEADER_CHANGES = 'etcd_server_leader_changes_seen_total';
export const IS_LEADER = 'etcd_server_is_leader';

const FAMILIES: readonly FamilyDef[] = [
  {
    name: HAS_LEADER,
    type: 'gauge',
    help: 'Whether or not a leader exists. 1 is existence, 0 is not.',
    labels: ['member'],
  },
  {
    name: IS_LEADER,
    type: 'gauge',
    help: 'Whether or not this member is a leader. 1 if is, 0 otherwise.',
    labels: ['member'],
  },
  { name: LEADER_CHANGES, type: 'counter', help: 'The number of leader changes seen.', labels: ['member'] },
  {
    name: 'etcd_debugging_lease_granted_total',
    type: 'counter',
    help: 'The total number of granted leases.',
    labels: ['member'],
  },
  {
    name: 'etcd_debugging_lease_revoked_total',
    type: 'counter',
    help: 'The total number of revoked leases.',
    labels: ['member'],
  },
  {
    name: 'etcd_debugging_lease_renewed_total',
    type: 'counter',
    help: 'The number of renewed leases seen by the leader.',
    labels: ['member'],
  },
  {
    name: 'etcd_debugging_lease_ttl_total',
    type: 'histogram',
    help: 'Bucketed histogram of lease TTLs.',
    labels: ['member'],
    buckets: TTL_BUCKETS,
  },
];

export class MemberEmitter implements Emitter {
  readonly families = FAMILIES;
  private readonly known = new Set<string>();

  onEvent(e: TraceEvent, store: SignalStore): void {
    if (!isMemberName(e.member)) return;
    const member = { member: e.member };
    if (!this.known.has(e.member)) {
      this.known.add(e.member);
      for (const f of FAMILIES) store.touch(f.name, member, e.t);
    }
    switch (e.kind) {
      // etcd sets has_leader from each Ready's soft state: a new term or a campaign clears the leader.
      case 'raft-term':
      case 'raft-step-down':
        return store.gauge(HAS_LEADER, member, e.t, 0);
      case 'raft-role': {
        const { role } = e.fields;
        store.gauge(IS_LEADER, member, e.t, role === 'leader' ? 1 : 0);
        if (role === 'candidate' || role === 'pre-candidate') store.gauge(HAS_LEADER, member, e.t, 0);
        return;
      }
      case 'raft-leader':
        store.gauge(HAS_LEADER, member, e.t, 1);
        return store.inc(LEADER_CHANGES, member, e.t);
      case 'lease-grant':
        store.inc('etcd_debugging_lease_granted_total', member, e.t);
        return store.observe('etcd_debugging_lease_ttl_total', member, e.t, e.fields.ttl);
      case 'lease-revoke':
        return store.inc('etcd_debugging_lease_revoked_total', member, e.t);
      case 'lease-renew':
        return store.inc('etcd_debugging_lease_renewed_total', member, e.t);
      case 'member-crash':
      case 'member-pause':
        return store.setDown(member, e.t);
      case 'member-resume':
        return store.resume(member, e.t);
      case 'member-restart':
        return store.restart(member, e.t);
    }
  }
}
