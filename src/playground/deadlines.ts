import type { Micros } from '../clock/time.js';
import { eventLease, type TraceEvent } from './trace-adapter.js';

/** A lease's deadline on the acting primary, and the one it had before a leader change moved it. */
export interface Deadline {
  readonly currentUs: Micros;
  /** The primary's deadline just before the last Promote, while no renewal has replaced it since. */
  readonly beforeLeaderChangeUs: Micros | undefined;
}

/**
 * Follows each lease's deadline through the trace, one event at a time: grants and renewals on the
 * primary set it, a Promote on a new leader replaces it (and keeps the old one to show beside it).
 */
export class DeadlineBook {
  private readonly byLease = new Map<bigint, Deadline>();

  fold(e: TraceEvent): void {
    const id = eventLease(e);
    if (id === undefined) return;
    if (e.kind === 'lease-revoke') {
      this.byLease.delete(id);
      return;
    }
    if (e.kind !== 'lease-grant' && e.kind !== 'lease-renew' && e.kind !== 'lease-promoted') return;
    const at = e.fields.expiry;
    // A demoted lessor holds every lease at forever: no deadline to show.
    if (at === Number.POSITIVE_INFINITY) return;
    const old = this.byLease.get(id);
    const before = e.kind === 'lease-promoted' && old !== undefined && old.currentUs !== at ? old.currentUs : undefined;
    this.byLease.set(id, { currentUs: at, beforeLeaderChangeUs: before });
  }

  get(id: bigint): Deadline | undefined {
    return this.byLease.get(id);
  }
}
