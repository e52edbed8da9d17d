/**
 * The lease events both runs can observe, in one shape so they pair up: what happened (kind), to what
 * (a lease label, a key, or "label (client)"), when (µs since time 0) and the value it carried (TTL,
 * revision, lease count). The simulation's come from its trace; the real run records its own.
 */
import type { Micros } from '../clock/time.js';
import type { RunResult } from '../scenario/replay/runner.js';
import type { DiffEventKind, Scenario } from '../scenario/types.js';
import type { TraceEvent } from '../trace/trace.js';
import { grantManyLabel } from '../scenario/lease-labels.js';

export type ObservedKind = DiffEventKind;

/** Why a key was deleted: a lease expiring (paced by the lessor's run loop) or a request. */
export type DeleteCause = 'expiry' | 'request';

export interface Observed {
  readonly kind: ObservedKind;
  readonly subject: string;
  readonly tUs: Micros;
  /** TTL (grant, renew, ttl), revision (put, delete) or lease count (leases). */
  readonly value?: number;
  readonly cause?: DeleteCause;
  /** A grant of a grant-many: answered while thousands of others queue in etcd. */
  readonly bulk?: boolean;
}

/** A keep-alive-once that failed: when its error came back is part of the behaviour (the server's timeout). */
export const failedOnceSubject = (label: string): string => `keepalive-once ${label}`;

/** Renewals are told apart by who sent them: a client's keep-alive stream, or a keep-alive-once. */
export const renewSubject = (label: string, client: string | undefined): string => `${label} (${client ?? 'once'})`;

/**
 * Labels whose grants are worth a row: every `grant`, and only the first and last of a `grant-many`
 * (a storm of thousands of rows would bury the rest; its pace shows in the first and last).
 */
export function reportedGrant(scenario: Scenario): (label: string) => 'single' | 'bulk' | undefined {
  const many = new Set<string>();
  const ends = new Set<string>();
  for (const s of scenario.steps) {
    if (s.kind !== 'grant-many') continue;
    for (let i = 1; i <= s.count; i++) many.add(grantManyLabel(s.prefix, i));
    ends.add(grantManyLabel(s.prefix, 1)).add(grantManyLabel(s.prefix, s.count));
  }
  return (label) => (!many.has(label) ? 'single' : ends.has(label) ? 'bulk' : undefined);
}

/** The simulation's observable lease events, as a client of real etcd would have seen them. */
export function simObserved(run: RunResult): Observed[] {
  const labelOf = (id: bigint | undefined): string =>
    id === undefined ? '?' : (run.labels.labelOf(id) ?? `lease ${id.toString(16)}`);
  const keep = reportedGrant(run.scenario);
  const expiryDeletes = keysRevokedOnExpiry(run.trace.events);
  const seenDeletes = new Set<string>();
  const out: Observed[] = [];
  for (const e of run.trace.events) {
    const add = (kind: ObservedKind, subject: string, value?: number, cause?: DeleteCause): void => {
      out.push({
        kind,
        subject,
        tUs: e.t,
        ...(value !== undefined ? { value } : {}),
        ...(cause !== undefined ? { cause } : {}),
      });
    };
    switch (e.kind) {
      case 'ctl-granted': {
        const { label, ttl } = e.fields;
        const reported = keep(label);
        if (reported === 'single') add('grant', label, ttl);
        if (reported === 'bulk') out.push({ kind: 'grant', subject: label, tUs: e.t, value: ttl, bulk: true });
        break;
      }
      case 'client-keepalive-recv': {
        // A TTL 0 answer means "lease not found": etcdctl closes the channel without printing a renewal.
        const { ttl } = e.fields;
        if (ttl > 0) add('renew', renewSubject(labelOf(e.lease), e.member), ttl);
        break;
      }
      case 'client-keepalive-once-recv':
        // The member's TTL 0 answer for a lease it does not have, before clientv3 turns it into ErrLeaseNotFound.
        if (e.member.startsWith('ctl-') && e.fields.ttl === 0)
          add('renew', renewSubject(labelOf(e.lease), undefined), 0);
        break;
      case 'ctl-error':
        if (e.fields.op === 'keepalive-once') add('error', failedOnceSubject(labelOf(e.lease)));
        break;
      case 'ctl-ok': {
        const f = e.fields;
        switch (f.op) {
          case 'put':
            add('put', String(f.key), f.rev);
            break;
          case 'revoke':
            add('revoke', labelOf(e.lease));
            break;
          case 'keepalive-once':
            if ((f.ttl ?? 0) > 0) add('renew', renewSubject(labelOf(e.lease), undefined), f.ttl);
            break;
          case 'timetolive':
            add('ttl', labelOf(e.lease), f.ttl);
            break;
          case 'leases':
            add('leases', 'listing', f.leases);
            break;
        }
        break;
      }
      case 'kv-delete': {
        const { key, rev } = e.fields;
        // Every member applies the delete; the first (the leader's) is when a watcher can learn of it.
        const id = `${key}@${rev}`;
        if (seenDeletes.has(id)) break;
        seenDeletes.add(id);
        add('delete', key, rev, expiryDeletes.has(`${key}@${e.t}`) ? 'expiry' : 'request');
        break;
      }
    }
  }
  return out;
}

/** `key@t` of every key deleted by revoking a lease the lessor had found expired. */
function keysRevokedOnExpiry(events: readonly TraceEvent[]): Set<string> {
  const expired = new Set<bigint>();
  const out = new Set<string>();
  for (const e of events) {
    if (e.lease === undefined) continue;
    if (e.kind === 'lease-expired') expired.add(e.lease);
    if (e.kind === 'lease-revoke' && expired.has(e.lease)) {
      for (const k of e.fields.keys) out.add(`${k}@${e.t}`);
    }
  }
  return out;
}
