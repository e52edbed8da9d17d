import { formatLeaseId, type Trace, type TraceEvent } from '../trace/trace.js';

interface Watched {
  readonly holder: string;
  readonly key: string;
  owns: boolean;
  revoked: boolean;
}

/**
 * What really happened to each holder's lease, as the cluster did it, beside what the holder believes:
 * `holder-owns` when the first member applies the put of its lock key with its lease, `holder-revoked`
 * when the first member applies the lease's revoke. Read from the trace as it is written, so the two
 * facts carry the instants the cluster acted.
 */
export class HolderTruth {
  private readonly leases = new Map<bigint, Watched>();
  private readonly byHex = new Map<string, bigint>();

  constructor(private readonly trace: Trace) {
    if (trace.enabled) trace.subscribe((e) => this.see(e));
  }

  /** A holder was granted `lease` and will try to put `key` with it. */
  watch(holder: string, lease: bigint, key: string): void {
    this.leases.set(lease, { holder, key, owns: false, revoked: false });
    this.byHex.set(formatLeaseId(lease), lease);
  }

  private see(e: TraceEvent): void {
    if (e.kind === 'lease-revoke' && e.lease !== undefined) {
      const w = this.leases.get(e.lease);
      if (w === undefined || w.revoked) return;
      w.revoked = true;
      this.trace.emit({ t: e.t, member: w.holder, kind: 'holder-revoked', lease: e.lease, fields: { by: e.member, owned: w.owns } });
    } else if (e.kind === 'kv-put') {
      const id = this.byHex.get(String(e.fields?.lease));
      const w = id === undefined ? undefined : this.leases.get(id);
      if (w === undefined || w.owns || w.key !== e.fields?.key) return;
      w.owns = true;
      this.trace.emit({ t: e.t, member: w.holder, kind: 'holder-owns', lease: id!, fields: { key: w.key, by: e.member } });
    }
  }
}
