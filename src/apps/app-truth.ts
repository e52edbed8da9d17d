/**
 * When a program's lease really ended, as the simulated cluster did it: `holder-revoked` under the
 * program's name when the first member applies the revoke (or expiry) of the lease the program said it
 * holds. HolderTruth does this for built-in holders, which name their lease before they put the key; a
 * program names it only after (its belief arrives once the put is answered), so the leases revoked
 * before a belief are remembered too, and a belief on a lease already gone is judged from that instant.
 * Read from the trace alone (`app-start` names the programs, `holder-acquired` their leases), so a
 * replay of a served run derives the same events.
 */
import type { Trace, TraceEvent } from '../trace/trace.js';

export class AppTruth {
  private readonly apps = new Set<string>();
  /** Lease → the program that said it holds it (and whether its end is already traced). */
  private readonly watched = new Map<bigint, { holder: string; done: boolean }>();
  private readonly revoked = new Set<bigint>();

  constructor(private readonly trace: Trace) {
    if (trace.enabled) trace.subscribe((e) => this.see(e));
  }

  private see(e: TraceEvent): void {
    if (e.kind === 'app-start') this.apps.add(e.member);
    else if (e.kind === 'holder-acquired' && e.lease !== undefined && this.apps.has(e.member)) {
      const w = { holder: e.member, done: false };
      this.watched.set(e.lease, w);
      if (this.revoked.has(e.lease)) this.end(e.lease, w, e.t, 'before-belief');
    } else if (e.kind === 'lease-revoke' && e.lease !== undefined && !this.revoked.has(e.lease)) {
      this.revoked.add(e.lease);
      const w = this.watched.get(e.lease);
      if (w !== undefined) this.end(e.lease, w, e.t, e.member);
    }
  }

  private end(lease: bigint, w: { holder: string; done: boolean }, t: number, by: string): void {
    if (w.done) return;
    w.done = true;
    this.trace.emit({ t, member: w.holder, kind: 'holder-revoked', lease, fields: { by } });
  }
}
