/**
 * The timeline as data: what the renderer draws, extracted from a run's trace. Nothing here knows about
 * pixels; every span and mark keeps the trace lines it came from so the page can show them on hover.
 */
import type { Micros } from '../../clock/time.js';

/** One trace event, reduced to what a mark needs: when, what, and its one-line form. */
export interface Mark {
  readonly t: Micros;
  readonly kind: string;
  readonly line: string;
  /** A variant the drawing distinguishes (e.g. `accepted` / `rejected` for a fenced write). */
  readonly variant?: string;
}

/** A stretch of time in one state; `lines` are the trace lines that began and ended it. */
export interface Span<S extends string = string> {
  readonly startUs: Micros;
  readonly endUs: Micros;
  readonly state: S;
  /** One-line summary shown first in the tooltip. */
  readonly summary: string;
  readonly lines: readonly string[];
}

export type RoleState = 'leader' | 'follower' | 'candidate' | 'pre-candidate' | 'crashed' | 'paused' | 'unknown';

export interface MemberLane {
  readonly name: string;
  readonly roles: readonly Span<RoleState>[];
  /** A term label where the member becomes leader. */
  readonly terms: readonly { readonly t: Micros; readonly term: number; readonly line: string }[];
  /** lessor-promote / lessor-demote. */
  readonly lessor: readonly Mark[];
  /** Every other event of the member. */
  readonly ticks: readonly Mark[];
}

/**
 * The primary's view of a lease from `startUs` to `endUs`: it expires at `expiryUs`, or no lessor is
 * primary (`expiryUs` undefined). `estimated` when the expiry was computed, not printed (a promote).
 */
export interface TtlSegment {
  readonly startUs: Micros;
  readonly endUs: Micros;
  readonly expiryUs: Micros | undefined;
  readonly primary: string | undefined;
  readonly estimated: boolean;
  readonly lines: readonly string[];
}

export interface LeaseLane {
  /** Unique among lanes: the hex ID, with `~2` etc. when the same ID is granted again after a revoke. */
  readonly key: string;
  readonly id: bigint;
  readonly hex: string;
  /** The scenario's label (L1), or a description (session of c2), or undefined. */
  readonly label: string | undefined;
  readonly ttlSeconds: number | undefined;
  readonly grantedUs: Micros;
  readonly revokedUs: Micros | undefined;
  readonly ttl: readonly TtlSegment[];
  /** lease-grant, -renew, -checkpoint, -expired, -revoke, -attach, -detach and any other event naming the lease. */
  readonly marks: readonly Mark[];
}

export type KeepAliveState = 'alive' | 'lost';
export type LockState = 'waiting' | 'held' | 'held-lease-gone';

export interface ClientLane {
  readonly name: string;
  readonly paused: readonly Span<'paused'>[];
  readonly keepAlives: readonly {
    readonly leaseKey: string;
    readonly title: string;
    readonly spans: readonly Span<KeepAliveState>[];
    readonly marks: readonly Mark[];
  }[];
  readonly locks: readonly {
    readonly name: string;
    readonly spans: readonly Span<LockState>[];
    readonly marks: readonly Mark[];
  }[];
  /** client-fenced-write, variant `accepted` or `rejected`. */
  readonly writes: readonly Mark[];
  readonly ticks: readonly Mark[];
}

/** A lane of plain ticks: the harness (`sim`) or etcdctl (`ctl`, `ctl-n1` …). */
export interface EventLane {
  readonly name: string;
  readonly title: string;
  readonly ticks: readonly Mark[];
}

export type GlobalMarkerKind = 'leader' | 'partition' | 'heal' | 'crash' | 'restart' | 'clock' | 'fail';

/** A vertical line across every lane. */
export interface GlobalMarker {
  readonly t: Micros;
  readonly kind: GlobalMarkerKind;
  readonly label: string;
  readonly lines: readonly string[];
}

export interface AssertionMark {
  readonly t: Micros;
  readonly pass: boolean;
  readonly text: string;
  readonly got: string;
  readonly line: number;
  /** The expect-pass / expect-fail trace line, when the trace has it. */
  readonly traceLine: string | undefined;
}

export interface Timeline {
  readonly startUs: Micros;
  readonly endUs: Micros;
  readonly members: readonly MemberLane[];
  readonly leases: readonly LeaseLane[];
  /** Leases left out past the lane limit. */
  readonly hiddenLeases: number;
  readonly clients: readonly ClientLane[];
  readonly harness: EventLane;
  readonly ctl: EventLane;
  readonly markers: readonly GlobalMarker[];
  /** Partitioned stretches, for a band under the axis. */
  readonly partitions: readonly Span<'partition'>[];
  readonly assertions: readonly AssertionMark[];
}
