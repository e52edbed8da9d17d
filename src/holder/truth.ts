import type { Trace, TraceEvent } from '../trace/trace.js';

interface Watched {
  readonly holder: string;
  /** undefined: any key the lease is first put with. */
  key: string | undefined;
  owns: boolean;
  revoked: boolean;
}

/**
 * What really happened to each holder's lease, as the cluster did it, beside what the holder believes:
 * `holder-owns` when the first member applies the put of its lock key with its lease, `holder-revoked`
 * when the first member applies the revoke of a lease that owned the key. Read from the trace as it is
 * written, so the two facts carry the instants the cluster acted.
 */
export class HolderTruth {
  private readonly leases = new Map<bigint, Watched>();

  constructor(private readonly trace: Trace) {
    if (trace.enabled) trace.subscribe((e) => this.see(e));
  }

  /** A holder was granted `lease` and will try to put `key` (or a key it has not named) with it. */
  watch(holder: string, lease: bigint, key?: string): void {
    this.leases.set(lease, { holder, key, owns: false, revoked: false });
  }

  private see(e: TraceEvent): void {
    if (e.kind === 'lease-revoke' && e.lease !== undefined) {
      const w = this.leases.get(e.lease);
      if (w === undefined || w.revoked || !w.owns) return;
      w.revoked = true;
      this.trace.emit({ t: e.t, member: w.holder, kind: 'holder-revoked', lease: e.lease, fields: { by: e.member } });
    } else if (e.kind === 'kv-put') {
      const { lease: id, key } = e.fields;
      const w = this.leases.get(id);
      if (w === undefined || w.owns || (w.key !== undefined && w.key !== key)) return;
      w.owns = true;
      w.key = key;
      this.trace.emit({ t: e.t, member: w.holder, kind: 'holder-owns', lease: id, fields: { key, by: e.member } });
    }
  }
}
