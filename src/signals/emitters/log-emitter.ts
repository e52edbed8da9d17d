/**
 * Structured lease log events (granted, renewed, lost, revoked) with the runbook's fields: lease_id,
 * key, revision, ttl_s. Granted, renewed and revoked are logged once, as the primary saw them; lost is
 * logged by the client whose keep-alive channel closed.
 */
import { FOREVER } from '../../lessor/lease.js';
import { formatExpiry, formatLeaseId, type TraceEvent } from '../../trace/trace.js';
import { isMemberName, type Emitter } from '../emitter.js';
import type { SignalStore } from '../store.js';
import { closedByClient } from './client-emitter.js';

interface LeaseFacts {
  key?: string;
  revision?: number | undefined;
  ttl?: number;
  revoked?: boolean;
}

export class LogEmitter implements Emitter {
  readonly families = [];
  private readonly leases = new Map<bigint, LeaseFacts>();
  /** The revision of each key's last put or delete, as the trace showed it. */
  private readonly revisions = new Map<string, number>();

  onEvent(e: TraceEvent, store: SignalStore): void {
    if ((e.kind === 'kv-put' || e.kind === 'kv-delete') && isMemberName(e.member)) {
      this.revisions.set(e.fields.key, e.fields.rev);
      return;
    }
    const id = e.lease;
    if (id === undefined) return;
    const facts = this.facts(id);
    if (e.kind === 'lease-attach' && facts.key === undefined) {
      // The lock key: the first key put with the lease.
      const [first] = e.fields.keys;
      if (first === undefined) return;
      facts.key = first;
      facts.revision = this.revisions.get(first);
      return;
    }
    const base = (): Record<string, string | number> => ({
      lease_id: formatLeaseId(id),
      ...(facts.key === undefined ? {} : { key: facts.key }),
      ...(facts.revision === undefined ? {} : { revision: facts.revision }),
      ...(facts.ttl === undefined ? {} : { ttl_s: facts.ttl }),
    });
    switch (e.kind) {
      case 'lease-grant':
        facts.ttl = e.fields.ttl;
        // Every member applies the grant; only the primary gives it an expiry.
        if (e.fields.expiry !== FOREVER)
          store.log(e.t, 'granted', { ...base(), member: e.member, expiry_s: formatExpiry(e.fields.expiry) });
        return;
      case 'lease-renew':
        facts.ttl = e.fields.ttl;
        return store.log(e.t, 'renewed', { ...base(), member: e.member, expiry_s: formatExpiry(e.fields.expiry) });
      case 'lease-revoke':
        if (facts.revoked === true) return;
        facts.revoked = true;
        // The revision of the delete the revoke made.
        if (facts.key !== undefined) facts.revision = this.revisions.get(facts.key) ?? facts.revision;
        return store.log(e.t, 'revoked', { ...base(), member: e.member });
      case 'client-keepalive-closed': {
        const { reason } = e.fields;
        if (closedByClient(reason)) return;
        return store.log(e.t, 'lost', { ...base(), client: e.member, reason });
      }
    }
  }

  private facts(id: bigint): LeaseFacts {
    let f = this.leases.get(id);
    if (f === undefined) this.leases.set(id, (f = {}));
    return f;
  }
}
