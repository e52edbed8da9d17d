/**
 * The runbook's client-side counters, per client process (label `client`; holders add a `holder` label
 * with their own emitter). clientv3 exposes neither, so the names are the runbook's.
 */
import { CLIENT_KINDS, isKindIn, type TraceEvent } from '../../trace/trace.js';
import type { Emitter } from '../emitter.js';
import type { FamilyDef } from '../families.js';
import type { SignalStore } from '../store.js';

export const RENEWAL_FAILURES = 'etcd_lease_renewal_failures_total';
export const STREAM_CLOSED = 'etcd_lease_keepalive_stream_closed_total';

export const CLOSE_REASONS = ['context_cancelled', 'lease_expired', 'connection_error'] as const;

const FAMILIES: readonly FamilyDef[] = [
  { name: RENEWAL_FAILURES, type: 'counter', help: 'Failed KeepAlive and KeepAliveOnce calls.', labels: ['client'] },
  {
    name: STREAM_CLOSED,
    type: 'counter',
    help: 'Keep-alive streams and channels closed, by reason.',
    labels: ['client', 'reason'],
  },
];

/** Why a keep-alive channel closed (the simulation's reason) in the runbook's three words. */
const CHANNEL_REASON: Readonly<Record<string, (typeof CLOSE_REASONS)[number]>> = {
  cancelled: 'context_cancelled',
  'client-closed': 'context_cancelled',
  'ttl<=0': 'lease_expired',
  deadline: 'lease_expired',
  'no-leader': 'connection_error',
};

/** Did the client close the channel itself (a cancelled context, Close), rather than lose it? */
export const closedByClient = (reason: string): boolean => CHANNEL_REASON[reason] === 'context_cancelled';

export class ClientEmitter implements Emitter {
  readonly families = FAMILIES;
  private readonly known = new Set<string>();

  onEvent(e: TraceEvent, store: SignalStore): void {
    if (!isKindIn(e, CLIENT_KINDS)) return;
    const client = { client: e.member };
    if (!this.known.has(e.member)) {
      // Registered when the client starts, so the first failure is an increase from 0.
      this.known.add(e.member);
      store.touch(RENEWAL_FAILURES, client, e.t);
      for (const reason of CLOSE_REASONS) store.touch(STREAM_CLOSED, { ...client, reason }, e.t);
    }
    switch (e.kind) {
      // A stopped process answers no scrape: its series go stale until it runs again.
      case 'client-pause':
        return store.setDown(client, e.t);
      case 'client-resume':
        return store.resume(client, e.t);
      case 'client-keepalive-once-error':
        return store.inc(RENEWAL_FAILURES, client, e.t);
      case 'client-keepalive-stream-error':
        store.inc(RENEWAL_FAILURES, client, e.t);
        return store.inc(STREAM_CLOSED, { ...client, reason: 'connection_error' }, e.t);
      case 'client-keepalive-closed': {
        const reason = CHANNEL_REASON[e.fields.reason] ?? 'connection_error';
        if (reason !== 'context_cancelled') store.inc(RENEWAL_FAILURES, client, e.t);
        return store.inc(STREAM_CLOSED, { ...client, reason }, e.t);
      }
    }
  }
}
