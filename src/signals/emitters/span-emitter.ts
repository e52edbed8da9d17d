/**
 * One `lease.keepalive` span per client keep-alive channel: from KeepAlive to the channel closing (or
 * the end of the run), with the lease's ID and last granted TTL. A lost lease ends the span in error.
 */
import type { Micros } from '../../clock/time.js';
import { formatLeaseId, type TraceEvent } from '../../trace/trace.js';
import type { Emitter } from '../emitter.js';
import type { Span, SignalStore } from '../store.js';
import { closedByClient } from './client-emitter.js';

export class SpanEmitter implements Emitter {
  readonly families = [];
  private readonly open = new Map<string, Span>();

  onEvent(e: TraceEvent, store: SignalStore): void {
    if (e.lease === undefined) return;
    const key = `${e.member} ${e.lease}`;
    switch (e.kind) {
      case 'client-keepalive-start':
        if (!this.open.has(key)) {
          this.open.set(key, store.startSpan('lease.keepalive', e.member, e.t, { 'lease.id': formatLeaseId(e.lease) }));
        }
        return;
      case 'client-keepalive-recv': {
        const s = this.open.get(key);
        if (s !== undefined && e.fields.ttl > 0) s.attributes['lease.ttl_s'] = e.fields.ttl;
        return;
      }
      case 'client-keepalive-closed': {
        const s = this.open.get(key);
        if (s === undefined) return;
        this.open.delete(key);
        s.endUs = e.t;
        const { reason } = e.fields;
        if (!closedByClient(reason)) s.error = `keep-alive lost: ${reason}`;
      }
    }
  }

  finish(endUs: Micros): void {
    for (const s of this.open.values()) s.endUs = endUs;
    this.open.clear();
  }
}
