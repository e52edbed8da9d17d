/**
 * When a program's lease really ended, as the simulated cluster did it: `holder-revoked` under the
 * program's name when the first member applies the revoke (or expiry) of the lease the program said it
 * holds. HolderTruth does this for built-in holders, which name their lease before they put the key; a
 * program names it only after (its belief arrives once the put is answered), so the leases revoked
 * before a belief are remembered too, and a belief on a lease already gone is judged from that instant.
 */
import type { Trace, TraceEvent } from '../trace/trace.js';

export class AppTruth {
  /** Lease → the program that said it holds it (and whether its end is already traced). */
  private readonly watched = new Map<bigint, { holder: string; done: boolean }>();
  private readonly revoked = new Set<bigint>();

  constructor(private readonly trace: Trace) {
    if (trace.enabled) trace.subscribe((e) => this.see(e));
  }

  /** A program said it holds `lease` (BeliefBook's onAcquired). */
  watch(holder: string, lease: bigint, now: () => number): void {
    const w = { holder, done: false };
    this.watched.set(lease, w);
    if (this.revoked.has(lease)) this.end(lease, w, now(), 'before-belief');
  }

  private see(e: TraceEvent): void {
    if (e.kind !== 'lease-revoke' || e.lease === undefined || this.revoked.has(e.lease)) return;
    this.revoked.add(e.lease);
    const w = this.watched.get(e.lease);
    if (w !== undefined) this.end(e.lease, w, e.t, e.member);
  }

  private end(lease: bigint, w: { holder: string; done: boolean }, t: number, by: string): void {
    if (w.done) return;
    w.done = true;
    this.trace.emit({ t, member: w.holder, kind: 'holder-revoked', lease, fields: { by } });
  }
}
