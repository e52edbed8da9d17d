/**
 * A lock holder's signals, under its name (label `holder`): `lease_ttl_remaining_seconds` from its
 * periodic TimeToLive (`holder-ttl`, only for holders given a `ttl-check-interval`), its client's renewal
 * failures again with a `holder` label beside the per-client series, and one `lease.heartbeat` span per
 * critical section (holder-acquired → holder-stop). A holder runs on its client's process, so its series
 * go stale while that client is stopped; the gauge also disappears between locks, when there is no lease.
 */
import type { Micros } from '../../clock/time.js';
import {
  CLIENT_KINDS,
  type ClientKind,
  formatLeaseId,
  isKindIn,
  type TraceEvent,
  type TraceEventMap,
} from '../../trace/trace.js';
import type { Emitter } from '../emitter.js';
import type { FamilyDef } from '../families.js';
import type { Span, SignalStore } from '../store.js';
import { closedByClient, RENEWAL_FAILURES } from './client-emitter.js';

export const TTL_REMAINING = 'lease_ttl_remaining_seconds';

const FAMILIES: readonly FamilyDef[] = [
  {
    name: TTL_REMAINING,
    type: 'gauge',
    help: "The TTL left on the holder's lease, from its periodic TimeToLive (-1: not found).",
    labels: ['holder'],
  },
];

/** Failed KeepAlive / KeepAliveOnce calls, as the client emitter counts them. */
const FAILURE_KINDS: ReadonlySet<ClientKind> = new Set([
  'client-keepalive-once-error',
  'client-keepalive-stream-error',
]);

export class HolderEmitter implements Emitter {
  readonly families = FAMILIES;
  /** Who was granted each lease: a holder's client is the one its lease was granted on. */
  private readonly grantedOn = new Map<bigint, string>();
  /** Client → the holder running on it (one holder per client). */
  private readonly holderOf = new Map<string, string>();
  private readonly open = new Map<string, Span>();
  /** Holders between locks: their TTL gauge is not exposed (no lease to ask about). */
  private readonly idle = new Set<string>();

  onEvent(e: TraceEvent, store: SignalStore): void {
    switch (e.kind) {
      case 'client-grant':
        if (e.lease !== undefined) this.grantedOn.set(e.lease, e.member);
        return;
      case 'holder-acquired':
        return this.acquired(e, store);
      case 'holder-ttl': {
        // Its TimeToLive failed (`err`) when there is no TTL: the gauge keeps its last value.
        const ttl = e.fields?.ttl;
        if (ttl !== undefined) {
          this.idle.delete(e.member);
          store.gauge(TTL_REMAINING, { holder: e.member }, e.t, ttl);
        }
        return;
      }
      case 'holder-stop':
        this.idle.add(e.member);
        store.unset(TTL_REMAINING, { holder: e.member }, e.t);
        return this.stopped(e);
    }
    if (!isKindIn(e, CLIENT_KINDS)) return;
    const holder = this.holderOf.get(e.member);
    if (holder === undefined) return;
    if (e.kind === 'client-pause') return store.setDown({ holder }, e.t);
    if (e.kind === 'client-resume') {
      store.resume({ holder }, e.t);
      if (this.idle.has(holder)) store.unset(TTL_REMAINING, { holder }, e.t);
      return;
    }
    const failed =
      FAILURE_KINDS.has(e.kind) || (e.kind === 'client-keepalive-closed' && !closedByClient(e.fields.reason));
    if (failed) store.inc(RENEWAL_FAILURES, { client: e.member, holder }, e.t);
  }

  private acquired(e: TraceEventMap['holder-acquired'], store: SignalStore): void {
    if (e.lease === undefined) return;
    const client = this.grantedOn.get(e.lease);
    if (client !== undefined && this.holderOf.get(client) !== e.member) {
      this.holderOf.set(client, e.member);
      // Registered at its first lock, so its first failure is an increase from 0.
      store.touch(RENEWAL_FAILURES, { client, holder: e.member }, e.t);
    }
    const f = e.fields;
    this.open.set(
      e.member,
      store.startSpan('lease.heartbeat', e.member, e.t, {
        'lease.id': formatLeaseId(e.lease),
        ...(f.ttl !== undefined ? { 'lease.ttl_s': f.ttl } : {}),
        'lease.fencing_revision': f.token,
      }),
    );
  }

  private stopped(e: TraceEventMap['holder-stop']): void {
    const s = this.open.get(e.member);
    if (s === undefined) return;
    this.open.delete(e.member);
    s.endUs = e.t;
    // A built-in holder stops only when it believes the lock lost; its reason says what it saw.
    s.error = `lock given up: ${e.fields.reason}`;
  }

  finish(endUs: Micros): void {
    for (const s of this.open.values()) s.endUs = endUs;
    this.open.clear();
  }
}
