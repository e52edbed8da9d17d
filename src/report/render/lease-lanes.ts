import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import { formatLeaseId } from '../../trace/trace.js';
import type { LeaseLane, Mark, TtlSegment } from './model.js';
import type { TraceView } from './trace-view.js';

/** Builds one lease lane: its marks and the primary's expiry over time, cut at every change. */
class LeaseBuilder {
  readonly marks: Mark[] = [];
  readonly ttl: TtlSegment[] = [];
  revokedUs: Micros | undefined;
  /** The last checkpointed remaining TTL (seconds); 0 means none, so a promote uses the full TTL. */
  remaining = 0;
  private cur:
    | {
        startUs: Micros;
        expiryUs: Micros | undefined;
        primary: string | undefined;
        estimated: boolean;
        lines: string[];
      }
    | undefined;

  constructor(
    readonly key: string,
    readonly id: bigint,
    readonly ttlSeconds: number | undefined,
    readonly grantedUs: Micros,
  ) {}

  get live(): boolean {
    return this.revokedUs === undefined;
  }

  /** From `t` on the primary's view is `expiryUs` (undefined: no primary). */
  set(t: Micros, expiryUs: Micros | undefined, primary: string | undefined, line: string, estimated = false): void {
    this.close(t, line);
    this.cur = { startUs: t, expiryUs, primary, estimated, lines: [line] };
  }

  close(t: Micros, line: string | undefined): void {
    const c = this.cur;
    if (c === undefined) return;
    if (t > c.startUs) {
      this.ttl.push({ ...c, endUs: t, lines: line === undefined ? c.lines : [...c.lines, line] });
    } else if (this.ttl.length > 0 && line !== undefined) {
      // A zero-length view (two changes at one instant): keep its line on the segment before.
      const prev = this.ttl[this.ttl.length - 1]!;
      this.ttl[this.ttl.length - 1] = {
        ...prev,
        lines: [...prev.lines, ...c.lines.filter((l) => !prev.lines.includes(l))],
      };
    }
    this.cur = undefined;
  }

  revoke(t: Micros, line: string): void {
    this.close(t, line);
    this.revokedUs = t;
  }

  lane(label: string | undefined, endUs: Micros): LeaseLane {
    if (this.live) this.close(endUs, undefined);
    return {
      key: this.key,
      id: this.id,
      hex: formatLeaseId(this.id),
      label,
      ttlSeconds: this.ttlSeconds,
      grantedUs: this.grantedUs,
      revokedUs: this.revokedUs,
      ttl: this.ttl,
      marks: this.marks,
    };
  }
}

/**
 * One lane per lease the cluster granted, in grant order, at most `maxLanes`. The TTL line follows the
 * primary: its lease-grant and lease-renew print the expiry; a lessor-promote resets every live lease to
 * promote time + extend + (checkpointed remaining, else TTL) as etcd's Lease.refresh does (estimated when
 * the promote spread a pile-up); a demote or a crash of the primary leaves no primary until the next promote.
 */
export function extractLeaseLanes(
  view: TraceView,
  labelOf: (id: bigint) => string | undefined,
  maxLanes: number,
): { lanes: LeaseLane[]; hidden: number } {
  const builders: LeaseBuilder[] = [];
  const current = new Map<bigint, LeaseBuilder>();
  const hidden = new Set<bigint>();
  const seen = new Map<bigint, number>();
  let primary: string | undefined;

  const noPrimary = (t: Micros, line: string): void => {
    primary = undefined;
    for (const b of current.values()) if (b.live) b.set(t, undefined, undefined, line);
  };

  view.events.forEach((e, i) => {
    if (!view.isMember(e.member)) return;
    const line = view.lines[i]!;
    if (e.lease === undefined) {
      if (e.kind === 'lessor-promote') {
        primary = e.member;
        const extendUs = e.fields.extend;
        const estimated = e.fields.spread > 0;
        for (const b of current.values()) {
          if (!b.live) continue;
          const seconds = b.remaining > 0 ? b.remaining : b.ttlSeconds;
          const expiry = seconds === undefined ? undefined : e.t + extendUs + seconds * MICROS_PER_SECOND;
          b.set(e.t, expiry, e.member, line, estimated || seconds === undefined);
        }
      } else if ((e.kind === 'lessor-demote' || e.kind === 'member-crash') && e.member === primary) {
        noPrimary(e.t, line);
      }
      return;
    }
    const id = e.lease;
    if (hidden.has(id)) {
      view.claim(i);
      return;
    }
    let b = current.get(id);
    if (e.kind === 'lease-grant' && (b === undefined || !b.live)) {
      if (builders.length >= maxLanes) {
        hidden.add(id);
        view.claim(i);
        return;
      }
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      const key = n === 1 ? formatLeaseId(id) : `${formatLeaseId(id)}~${n}`;
      b = new LeaseBuilder(key, id, e.fields.ttl, e.t);
      builders.push(b);
      current.set(id, b);
      b.set(e.t, undefined, undefined, line);
    }
    if (b === undefined) return; // an event about a lease never granted: a plain tick on the member
    view.claim(i);
    b.marks.push(view.mark(i));
    if (!b.live) return;
    switch (e.kind) {
      case 'lease-grant':
      case 'lease-renew': {
        // A lease granted while no lessor was primary has no expiry to draw yet.
        const expiry = e.fields.expiry;
        if (expiry !== FOREVER) {
          primary = e.member;
          b.set(e.t, expiry, e.member, line);
        }
        break;
      }
      case 'lease-checkpoint':
        b.remaining = e.fields.remaining;
        break;
      case 'lease-revoke':
        b.revoke(e.t, line);
        break;
    }
  });
  return { lanes: builders.map((b) => b.lane(labelOf(b.id), view.endUs)), hidden: hidden.size };
}
