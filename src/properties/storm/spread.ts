import { MICROS_PER_SECOND, NANOS_PER_MICRO, ceilDiv, type Micros } from '../../clock/time.js';
import type { TraceEvent } from '../../trace/trace.js';
import { maxInWindow } from './windows.js';

/** One lease as a Promote left it, from its `lease-promoted` line. */
export interface PromotedLease {
  readonly id: bigint;
  /** t + extend + RemainingTTL(): where the lease would expire without spreading. */
  readonly naturalUs: Micros;
  readonly expiryUs: Micros;
}

/** One Promote: its time and every lease it refreshed. */
export interface PromoteRecord {
  readonly t: Micros;
  readonly member: string;
  readonly leases: readonly PromotedLease[];
}

/** Every Promote in a trace, with its leases (needs `lessor-promote` and `lease-promoted`). */
export function promoteRecords(events: readonly TraceEvent[]): PromoteRecord[] {
  const out: Array<{ t: Micros; member: string; extendUs: Micros; leases: PromotedLease[] }> = [];
  for (const e of events) {
    if (e.kind === 'lessor-promote') out.push({ t: e.t, member: e.member, extendUs: e.fields.extend, leases: [] });
    else if (e.kind === 'lease-promoted' && e.lease !== undefined) {
      const p = out.at(-1)!;
      p.leases.push({
        id: e.lease,
        naturalUs: p.t + p.extendUs + e.fields.remaining * MICROS_PER_SECOND,
        expiryUs: e.fields.expiry,
      });
    }
  }
  return out;
}

/** A spreading window of docs/lessor.md §3.8: it starts at `baseUs`; its k-th lease past the target is pushed. */
export interface SpreadWindow {
  readonly baseUs: Micros;
  /** The pushed leases' expected expiries, in order. */
  readonly pushed: readonly { readonly id: bigint; readonly expectedUs: Micros }[];
}

/**
 * docs/lessor.md §3.8's pile-up spreading replayed on a Promote's natural deadlines (sorted by deadline, then ID):
 * a window starts at a lease past `nextWindow`; its k-th lease beyond T = ⌊3·rate/4⌋ is pushed to
 * base + k/T s (the delay in float ns, truncated, as Go computes it), and nextWindow becomes
 * base + that lease's *delay* — not its new deadline, so a later window can start inside the seconds the
 * pushed leases fill. Written from the spec as an oracle for the model's Promote.
 */
export function spreadWindows(leases: readonly PromotedLease[], rate: number): SpreadWindow[] {
  const sorted = [...leases].sort((a, b) => a.naturalUs - b.naturalUs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const target = Math.trunc((3 * rate) / 4);
  const windows: Array<{ baseUs: Micros; pushed: Array<{ id: bigint; expectedUs: Micros }> }> = [];
  if (sorted.length < rate) return windows;
  let base = sorted[0]!.naturalUs;
  let nextWindowNs = 1e9;
  let expires = 0;
  windows.push({ baseUs: base, pushed: [] });
  for (const l of sorted) {
    const sinceBaseNs = (l.naturalUs - base) * NANOS_PER_MICRO;
    if (sinceBaseNs > nextWindowNs) {
      base = l.naturalUs;
      nextWindowNs = 1e9;
      expires = 1;
      windows.push({ baseUs: base, pushed: [] });
      continue;
    }
    expires++;
    if (expires <= target) continue;
    const delayNs = Math.trunc(1e9 * (expires / target) - sinceBaseNs);
    nextWindowNs = delayNs;
    windows.at(-1)!.pushed.push({ id: l.id, expectedUs: l.naturalUs + ceilDiv(delayNs, NANOS_PER_MICRO) });
  }
  return windows;
}

export interface SpreadReport {
  /** Leases whose expiry differs from the oracle's (pushed or not): must be empty. */
  readonly mismatches: readonly bigint[];
  /** Leases moved earlier than their natural deadline: must be 0. */
  readonly movedEarlier: number;
  /** Most pushed leases of one window in any half-open second: at most T. */
  readonly maxPushedPerWindowSecond: number;
  /** Most leases due in any half-open second, and of those how many were not pushed there. */
  readonly maxDue: { readonly count: number; readonly startUs: Micros | undefined; readonly natural: number };
  /** Most pushed leases (all windows) in any half-open second, and how many windows' pushed ranges meet it. */
  readonly maxPushed: { readonly count: number; readonly overlapping: number };
}

const SECOND = MICROS_PER_SECOND;

/** Checks one Promote's deadlines against the oracle and measures the per-second figures. */
export function spreadReport(p: PromoteRecord, rate: number): SpreadReport {
  const windows = spreadWindows(p.leases, rate);
  const expected = new Map<bigint, Micros>();
  for (const w of windows) for (const x of w.pushed) expected.set(x.id, x.expectedUs);
  const mismatches = p.leases.filter((l) => l.expiryUs !== (expected.get(l.id) ?? l.naturalUs)).map((l) => l.id);
  const pushedTimes = p.leases.filter((l) => l.expiryUs !== l.naturalUs).map((l) => l.expiryUs);
  const maxPushedPerWindowSecond = Math.max(
    0,
    ...windows.map(
      (w) =>
        maxInWindow(
          w.pushed.map((x) => x.expectedUs),
          SECOND,
        ).count,
    ),
  );
  const due = maxInWindow(
    p.leases.map((l) => l.expiryUs),
    SECOND,
  );
  const inWindow = (t: Micros, from: Micros | undefined): boolean =>
    from !== undefined && t >= from && t < from + SECOND;
  const natural = p.leases.filter((l) => l.expiryUs === l.naturalUs && inWindow(l.expiryUs, due.startUs)).length;
  const pushed = maxInWindow(pushedTimes, SECOND);
  const overlapping = windows.filter((w) => w.pushed.some((x) => inWindow(x.expectedUs, pushed.startUs))).length;
  return {
    mismatches,
    movedEarlier: p.leases.filter((l) => l.expiryUs < l.naturalUs).length,
    maxPushedPerWindowSecond,
    maxDue: { count: due.count, startUs: due.startUs, natural },
    maxPushed: { count: pushed.count, overlapping },
  };
}
