/**
 * Questions a lesson asks of a finished run ("when was the key deleted?", "who renewed the lease?"),
 * answered from its trace, so a lesson's text and its verdicts stay true when its scenario changes.
 */
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import type { RunResult } from '../scenario/replay/runner.js';
import {
  expiryOf,
  isKind,
  isKindIn,
  KEY_KINDS,
  KEYS_KINDS,
  type TraceEventMap,
  type TraceKind,
} from '../trace/trace.js';
import type { WireLog, WireMessage } from './wire-log.js';
import { eventLease, eventMember, eventTime, type TraceEvent } from './trace-adapter.js';

export interface MessageQuery {
  readonly from?: string;
  readonly to?: string;
  readonly carries?: string;
}

/** Which events of a kind to pick; `where` sees the kind's fields typed. */
export interface EventQuery<E extends TraceEvent = TraceEvent> {
  readonly member?: string;
  /** A lease by its label in the scenario (L1, A, ...). */
  readonly lease?: string;
  /** A lease by its ID (holders' leases have no label). */
  readonly leaseId?: bigint;
  readonly key?: string;
  /** Only events at or after this instant. */
  readonly from?: Micros;
  /** Only events before this instant. */
  readonly before?: Micros;
  readonly where?: (e: E) => boolean;
}

export class RunFacts {
  private readonly events: readonly TraceEvent[];

  constructor(
    readonly result: RunResult,
    readonly wire: WireLog,
  ) {
    this.events = result.trace.events;
  }

  /** The first message of `kind` sent at or after `from` (and matching `q`), from the picture's side channel. */
  message(kind: string, from: Micros = 0, q: MessageQuery = {}): WireMessage | undefined {
    return this.wire.messages.find(
      (m) =>
        m.kind === kind &&
        m.sentUs >= from &&
        (q.from === undefined || m.from === q.from) &&
        (q.to === undefined || m.to === q.to) &&
        (q.carries === undefined || (m.carries ?? []).includes(q.carries)),
    );
  }

  /** Halfway along the first such message: where a step stands to show it in flight. */
  midFlight(kind: string, from: Micros = 0, q: MessageQuery = {}): Micros | undefined {
    const m = this.message(kind, from, q);
    return m === undefined ? undefined : Math.round((m.sentUs + (m.arriveUs ?? m.sentUs)) / 2);
  }

  all<K extends TraceKind>(kind: K, q: EventQuery<TraceEventMap[K]> = {}): TraceEventMap[K][] {
    const id = q.leaseId ?? (q.lease === undefined ? undefined : this.result.labels.id(q.lease));
    if (q.lease !== undefined && id === undefined) return [];
    return this.events.filter(
      (e): e is TraceEventMap[K] =>
        isKind(e, kind) &&
        (q.member === undefined || eventMember(e) === q.member) &&
        (id === undefined || eventLease(e) === id) &&
        (q.key === undefined || keysOf(e).includes(q.key)) &&
        (q.from === undefined || eventTime(e) >= q.from) &&
        (q.before === undefined || eventTime(e) < q.before) &&
        (q.where === undefined || q.where(e)),
    );
  }

  first<K extends TraceKind>(kind: K, q: EventQuery<TraceEventMap[K]> = {}): TraceEventMap[K] | undefined {
    return this.all(kind, q)[0];
  }

  /** When `kind` first happened (matching `q`), or undefined. */
  when<K extends TraceKind>(kind: K, q: EventQuery<TraceEventMap[K]> = {}): Micros | undefined {
    const e = this.first(kind, q);
    return e === undefined ? undefined : e.t;
  }

  /** When the key was first deleted (on any member; they delete in the same raft entry). */
  keyDeletedAt(key: string, from: Micros = 0): Micros | undefined {
    return this.when('kv-delete', { key, from });
  }

  /** A lease's expiry as its primary lessor last set it at or before `t`. */
  expiryAt(lease: string, t: Micros): Micros | undefined {
    let out: Micros | undefined;
    const q = { lease, before: t + 1 };
    const sets: TraceEventMap['lease-grant' | 'lease-renew' | 'lease-promoted'][] = [
      ...this.all('lease-grant', q),
      ...this.all('lease-renew', q),
      ...this.all('lease-promoted', q),
    ];
    // A demoted lessor's forever is no deadline.
    for (const e of sets.sort((a, b) => eventTime(a) - eventTime(b))) out = expiryOf(e) ?? out;
    return out;
  }

  /** The member that led at `t` (the last to become leader by then), if any. */
  leaderAt(t: Micros): string | undefined {
    let leader: string | undefined;
    for (const e of this.events) {
      if (eventTime(e) > t) break;
      if (e.kind === 'raft-role' && e.fields.role === 'leader') leader = eventMember(e);
      else if ((e.kind === 'raft-role' || e.kind === 'member-crash') && eventMember(e) === leader) leader = undefined;
    }
    return leader;
  }
}

/** The keys an event names: `key=` of a put or delete, `keys=` of a revoke or attach. */
function keysOf(e: TraceEvent): readonly string[] {
  const key = isKindIn(e, KEY_KINDS) ? e.fields.key : undefined;
  if (key !== undefined) return [key];
  return (isKindIn(e, KEYS_KINDS) ? e.fields.keys : undefined) ?? [];
}

/** `9.503 s`: seconds to the millisecond, as lessons print instants. */
export const at = (us: Micros | undefined): string =>
  us === undefined ? 'never' : `${(us / MICROS_PER_SECOND).toFixed(3).replace(/\.?0+$/, '')} s`;

/** A duration in seconds, to a tenth or finer when short. */
export const span = (us: number): string =>
  Math.abs(us) >= 10 * MICROS_PER_SECOND
    ? `${(us / MICROS_PER_SECOND).toFixed(1)} s`
    : Math.abs(us) >= MICROS_PER_SECOND
      ? `${(us / MICROS_PER_SECOND).toFixed(2)} s`
      : `${Math.round(us / 1000)} ms`;
