import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { FOREVER } from '../../lessor/lease.js';
import type { TraceEvent, TraceEventMap, TraceKind } from '../../trace/trace.js';
import { PrimaryTracker } from './primary.js';

/** Trace kinds that disturb a primary: the start of a leader change or of a fault. */
export const DISTURBANCE_KINDS: ReadonlySet<string> = new Set([
  'raft-transfer',
  'member-crash',
  'member-restart',
  'member-pause',
  'member-stall',
  'net-partition',
  'member-clock-jump',
]);

/** The trace kinds measureDrift reads; a run may record only these. */
export const DRIFT_KINDS: ReadonlySet<string> = new Set([
  ...DISTURBANCE_KINDS,
  'lease-grant',
  'lease-renew',
  'lease-revoke',
  'lease-promoted',
  'lease-checkpoint',
  'lessor-promote',
  'lessor-demote',
  'server-expired-revoke',
]);

/** One Promote in a lease's life, from its `lease-promoted` line. */
export interface Promotion {
  readonly t: Micros;
  readonly member: string;
  /** RemainingTTL() the Promote used (s): the checkpointed value, or the TTL. */
  readonly remaining: number;
  readonly expiry: Micros;
  /** What pile-up spreading added beyond t + extend + remaining. */
  readonly spreadUs: Micros;
}

export interface LeaseDrift {
  readonly lease: bigint;
  readonly ttl: number;
  readonly anchor: 'grant' | 'renew';
  readonly anchorUs: Micros;
  /** The revoke applied on the member that was primary then; failing that, its first apply anywhere. */
  readonly revokeUs: Micros | undefined;
  readonly revokedOnPrimary: boolean;
  /** revoke − anchor − TTL; undefined while the lease lives. */
  readonly driftUs: Micros | undefined;
  readonly promotions: readonly Promotion[];
  /** k and k_T of driftBound. */
  readonly leaderChanges: number;
  readonly fullTtlChanges: number;
  readonly maxSpreadUs: Micros;
  /** G of driftBound: the longest stretch from the first disturbance of a segment to the segment's end. */
  readonly gapUs: Micros;
  readonly failedAttempts: number;
  /**
   * The revoke was proposed by a member other than the one that applied it as primary: an old leader's
   * proposal, forwarded by raft to the new leader (bug catalogue C4; see docs/drift.md for the pause that
   * gets it past ensureLeadership in 3.5).
   */
  readonly staleRevoke: boolean;
  /**
   * A renewal after the anchor served by a superseded primary: an old leader, paused or cut off, that had
   * not yet demoted while another member had already been promoted. The client got an acknowledgement the
   * current primary never saw (etcd's peer renew handler confirms no leadership). Undefined if none.
   */
  readonly supersededRenewUs: Micros | undefined;
  /**
   * A checkpoint computed before the anchor renewal took effect after it (bug catalogue A7, an
   * inference there; the model shows it): either the renewal itself refreshed to a stale checkpointed
   * remaining (the checkpoint applied between Renew's clearing entry and its refresh), or a checkpoint
   * applied later claims less time than the renewal granted. The only early expiry without a bug switch
   * besides staleRevoke.
   */
  readonly staleCheckpoint: boolean;
}

/** An event and its index in the trace, typed by kind. */
interface Indexed<K extends TraceKind = TraceKind> {
  readonly i: number;
  readonly e: TraceEventMap[K];
}

interface LeaseLog {
  grants: Indexed<'lease-grant'>[];
  primaryGrant?: Indexed<'lease-grant'>;
  renews: Indexed<'lease-renew'>[];
  superseded: Indexed<'lease-renew'>[];
  promotions: Array<Indexed<'lease-promoted'> & { readonly extend: Micros }>;
  checkpoints: Indexed<'lease-checkpoint'>[];
  revokeAny?: Indexed<'lease-revoke'>;
  revokePrimary?: Indexed<'lease-revoke'>;
  failures: Indexed<'server-expired-revoke'>[];
  proposers: string[];
}

/**
 * The drift monitor: every lease's drift from a trace (events in emission order), with what driftBound
 * needs to bound it. The anchor is the current primary's `lease-renew` (the instant it moved the
 * deadline), or the grant's apply on it. Client receive times are not used: a response can be delayed
 * without limit, so they bound nothing about the lessor.
 */
export function measureDrift(events: readonly TraceEvent[]): LeaseDrift[] {
  const primary = new PrimaryTracker();
  const logs = new Map<bigint, LeaseLog>();
  const disturbances: Indexed[] = [];
  const log = (id: bigint): LeaseLog => {
    let l = logs.get(id);
    if (l === undefined)
      logs.set(
        id,
        (l = { grants: [], renews: [], superseded: [], promotions: [], checkpoints: [], failures: [], proposers: [] }),
      );
    return l;
  };
  events.forEach((e, i) => {
    primary.feed(e);
    if (DISTURBANCE_KINDS.has(e.kind)) disturbances.push({ i, e });
    if (e.lease === undefined) return;
    const onPrimary = primary.isCurrent(e.member);
    switch (e.kind) {
      case 'lease-grant': {
        const l = log(e.lease);
        l.grants.push({ i, e });
        if (onPrimary) l.primaryGrant ??= { i, e };
        break;
      }
      case 'lease-renew':
        (onPrimary ? log(e.lease).renews : log(e.lease).superseded).push({ i, e });
        break;
      case 'lease-promoted':
        log(e.lease).promotions.push({ i, e, extend: primary.extend(e.member) });
        break;
      case 'lease-checkpoint':
        if (onPrimary) log(e.lease).checkpoints.push({ i, e });
        break;
      case 'lease-revoke': {
        const l = log(e.lease);
        l.revokeAny ??= { i, e };
        if (onPrimary) l.revokePrimary ??= { i, e };
        break;
      }
      case 'server-expired-revoke':
        if (!e.fields.ok) log(e.lease).failures.push({ i, e });
        else log(e.lease).proposers.push(e.member);
        break;
    }
  });
  return [...logs.entries()].flatMap(([id, l]) => (l.grants.length === 0 ? [] : [leaseDrift(id, l, disturbances)]));
}

function leaseDrift(id: bigint, l: LeaseLog, disturbances: readonly Indexed[]): LeaseDrift {
  const grant = l.primaryGrant ?? l.grants[0]!;
  const ttl = grant.e.fields.ttl;
  const revoke = l.revokePrimary ?? l.revokeAny;
  const end = revoke?.i ?? Number.POSITIVE_INFINITY;
  const renew = l.renews.filter((r) => r.i < end).at(-1);
  const anchor = renew ?? grant;
  const within = (x: Indexed): boolean => x.i > anchor.i && x.i < end;
  const promotedAt = l.promotions.filter(within);
  const promotions = promotedAt.map((p) => {
    const { remaining, expiry } = p.e.fields;
    return {
      t: p.e.t,
      member: p.e.member,
      remaining,
      expiry,
      spreadUs: Math.max(0, expiry - p.e.t - p.extend - remaining * MICROS_PER_SECOND),
    };
  });
  // Segments: anchor → p1 → … → pk → revoke. Each is charged from its first disturbance to its end.
  const bounds = [anchor, ...promotedAt, ...(revoke === undefined ? [] : [revoke])];
  let gapUs = 0;
  for (let s = 1; s < bounds.length; s++) {
    const from = bounds[s - 1]!;
    const to = bounds[s]!;
    const first = disturbances.find((d) => d.i > from.i && d.i <= to.i);
    const isPromotion = to !== revoke;
    const g = first !== undefined ? to.e.t - first.e.t : isPromotion ? to.e.t - from.e.t : 0;
    gapUs = Math.max(gapUs, g);
  }
  const anchorExpiry = anchor.e.fields.expiry === FOREVER ? undefined : anchor.e.fields.expiry;
  const anchorTtlEnd = anchor.e.t + ttl * MICROS_PER_SECOND;
  const laterShorter = (c: Indexed<'lease-checkpoint'>): boolean => {
    const rem = c.e.fields.remaining;
    return within(c) && rem > 0 && anchorExpiry !== undefined && rem * MICROS_PER_SECOND < anchorExpiry - c.e.t;
  };
  const staleCheckpoint =
    anchorExpiry !== undefined && (anchorExpiry < anchorTtlEnd || l.checkpoints.some(laterShorter));
  return {
    lease: id,
    ttl,
    anchor: renew === undefined ? 'grant' : 'renew',
    anchorUs: anchor.e.t,
    revokeUs: revoke?.e.t,
    revokedOnPrimary: l.revokePrimary !== undefined,
    driftUs: revoke === undefined ? undefined : revoke.e.t - anchor.e.t - ttl * MICROS_PER_SECOND,
    promotions,
    leaderChanges: promotions.length,
    fullTtlChanges: promotions.filter((p) => p.remaining === ttl).length,
    maxSpreadUs: promotions.reduce((m, p) => Math.max(m, p.spreadUs), 0),
    gapUs,
    failedAttempts: l.failures.filter(within).length,
    staleRevoke: l.revokePrimary !== undefined && l.proposers.some((m) => m !== l.revokePrimary!.e.member),
    supersededRenewUs: l.superseded.filter(within).at(-1)?.e.t,
    staleCheckpoint,
  };
}
