/**
 * Structured lease log events (granted, renewed, lost, revoked) with the runbook's fields: lease_id,
 * key, revision, ttl_s. Granted, renewed and revoked are logged once, as the primary saw them; lost is
 * logged by the client whose keep-alive channel closed.
 */
import { FOREVER } from '../../lessor/lease.js';
import { fieldsOf, formatExpiry, formatLeaseId, type TraceEvent } from '../../trace/trace.js';
import { isMemberName, type Emitter } from '../emitter.js';
import type { SignalStore } from '../store.js';

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
    const f = fieldsOf(e);
    if ((e.kind === 'kv-put' || e.kind === 'kv-delete') && isMemberName(e.member)) {
      this.revisions.set(String(f.key), Number(f.rev));
      return;
    }
    if (e.lease === undefined) return;
    const facts = this.facts(e.lease);
    if (e.kind === 'lease-attach' && facts.key === undefined && Array.isArray(f.keys) && f.keys.length > 0) {
      // The lock key: the first key put with the lease.
      facts.key = String(f.keys[0]);
      facts.revision = this.revisions.get(facts.key);
      return;
    }
    const base = (): Record<string, string | number> => ({
      lease_id: formatLeaseId(e.lease!),
      ...(facts.key === undefined ? {} : { key: facts.key }),
      ...(facts.revision === undefined ? {} : { revision: facts.revision }),
      ...(facts.ttl === undefined ? {} : { ttl_s: facts.ttl }),
    });
    switch (e.kind) {
      case 'lease-grant':
        facts.ttl = Number(f.ttl);
        // Every member applies the grant; only the primary gives it an expiry.
        if (e.fields?.expiry !== FOREVER)
          store.log(e.t, 'granted', {
            ...base(),
            member: e.member,
            expiry_s: formatExpiry(e.fields?.expiry ?? Number.NaN),
          });
        return;
      case 'lease-renew':
        facts.ttl = Number(f.ttl);
        return store.log(e.t, 'renewed', {
          ...base(),
          member: e.member,
          expiry_s: formatExpiry(e.fields?.expiry ?? Number.NaN),
        });
      case 'lease-revoke':
        if (facts.revoked === true) return;
        facts.revoked = true;
        // The revision of the delete the revoke made.
        if (facts.key !== undefined) facts.revision = this.revisions.get(facts.key) ?? facts.revision;
        return store.log(e.t, 'revoked', { ...base(), member: e.member });
      case 'client-keepalive-closed':
        if (f.reason === 'cancelled' || f.reason === 'client-closed') return;
        return store.log(e.t, 'lost', { ...base(), client: e.member, reason: String(f.reason) });
    }
  }

  private facts(id: bigint): LeaseFacts {
    let f = this.leases.get(id);
    if (f === undefined) this.leases.set(id, (f = {}));
    return f;
  }
}
