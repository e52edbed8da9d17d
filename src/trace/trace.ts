import { formatSeconds, formatSecondsShort, type Micros } from '../clock/time.js';
import { newDigest, type LineDigest } from './digest.js';
import type { EventOf, TraceEventMap, TraceKind } from './events.js';

export type {
  ClientKind,
  ErrKind,
  ErrorKind,
  EventOf,
  ExpiryKind,
  FieldsArg,
  HolderKind,
  KeepAliveKind,
  KeyKind,
  KeysKind,
  KindGroup,
  MemberFaultKind,
  TraceEventMap,
  TraceFields,
  TraceKind,
} from './events.js';
export {
  CLIENT_KINDS,
  ERR_KINDS,
  ERROR_KINDS,
  EXPIRY_KINDS,
  expiryOf,
  HOLDER_KINDS,
  isKind,
  isKindIn,
  KEEPALIVE_KINDS,
  KEY_KINDS,
  KEYS_KINDS,
  LEASE_KINDS,
  MEMBER_FAULT_KINDS,
} from './events.js';

/**
 * One state change, a union keyed by `kind` (events.ts lists every kind and its fields). Every layer
 * emits these and everything downstream (golden files, explain, the timeline, property monitors) reads
 * them: one source of truth.
 */
export type TraceEvent = TraceEventMap[TraceKind];

/** Any event's fields by name, for readers that take the field name as a parameter. */
export const fieldsOf = (e: TraceEvent): Readonly<Record<string, unknown>> => e.fields ?? {};

/** Lease IDs print as etcd prints them: lower-case hex of the ID as an unsigned 64-bit number. */
export function formatLeaseId(id: bigint): string {
  return BigInt.asUintN(64, id).toString(16);
}

const seconds = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? formatSecondsShort(v) : undefined;

/**
 * Fields printed in a style of their own (a value of another type than the style's prints plainly);
 * any other field prints by its value's type.
 */
const STYLED: ReadonlyMap<string, (v: unknown) => string | undefined> = new Map([
  [
    'expiry',
    (v: unknown) =>
      typeof v === 'number' && (Number.isFinite(v) || v === Number.POSITIVE_INFINITY) ? formatExpiry(v) : undefined,
  ],
  ['extend', seconds],
  ['delta', seconds],
  ['lease', (v: unknown) => (typeof v === 'bigint' ? formatLeaseId(v) : undefined)],
  [
    'groups',
    (v: unknown) =>
      Array.isArray(v) && v.every((g) => Array.isArray(g))
        ? v.map((g: readonly string[]) => g.join(',')).join('|')
        : undefined,
  ],
]);

/** A field in its own style (an expiry, a lease ID, partition groups), or undefined for a plain one. */
export function styledField(name: string, v: unknown): string | undefined {
  return STYLED.get(name)?.(v);
}

/** `12.500000`, or `forever` for a lease no lessor will expire: as trace lines print an expiry. */
export const formatExpiry = (us: Micros): string => (us === Number.POSITIVE_INFINITY ? 'forever' : formatSeconds(us));

function formatField(name: string, v: unknown): string {
  return styledField(name, v) ?? formatValue(v);
}

function formatValue(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'inf' : '-inf';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : v.map((x) => String(x)).join(',');
  const str = String(v);
  // Quoted only when needed, so the line still splits on spaces into key=value pairs.
  return str === '' || /[\s"=]/.test(str) ? JSON.stringify(str) : str;
}

/**
 * The trace grammar, one line per event:
 *
 *     <seconds.micros> <member> <kind> <lease-hex | -> [key=value]...
 *
 * e.g. `12.500000 n1 lease-revoke 694d7a1b2c3d4e5f keys=/a,/b`. Fields keep the order the emitter gave.
 */
export function formatEvent(e: TraceEvent): string {
  let line = `${formatSeconds(e.t)} ${e.member} ${e.kind} ${e.lease === undefined ? '-' : formatLeaseId(e.lease)}`;
  const fields: Readonly<Record<string, unknown>> | undefined = e.fields;
  if (fields !== undefined) {
    for (const k of Object.keys(fields)) if (fields[k] !== undefined) line += ` ${k}=${formatField(k, fields[k])}`;
  }
  return line;
}

export type TraceListener = (e: TraceEvent) => void;

/**
 * Collects events. `enabled` lets hot paths skip building events nobody reads (benchmarks run with it
 * off). Every event is also folded into a running SHA-256 of its formatted line, so two runs compare at
 * a glance.
 */
export class Trace {
  readonly events: TraceEvent[] = [];
  private readonly listeners: TraceListener[] = [];
  /** Absent when not hashing: a campaign builds a trace per run and would never feed it. */
  private readonly digest: LineDigest | undefined;
  private count = 0;

  constructor(
    readonly enabled = true,
    private readonly keep = true,
    /** Off for campaigns that never read the hash: formatting and hashing each line is most of a trace's cost. */
    hashing = true,
  ) {
    this.digest = hashing ? newDigest() : undefined;
  }

  emit<K extends TraceKind>(event: EventOf<K>): void {
    if (!this.enabled) return;
    // EventOf<K> is the union's member for K; for a generic K the compiler cannot see that by itself.
    const e = event as TraceEvent;
    this.count++;
    if (this.digest !== undefined) {
      this.digest.update(formatEvent(e));
      this.digest.update('\n');
    }
    if (this.keep) this.events.push(e);
    for (const l of this.listeners) l(e);
  }

  subscribe(l: TraceListener): void {
    this.listeners.push(l);
  }

  get length(): number {
    return this.count;
  }

  /** Hex SHA-256 of every line so far (the hash object is copied, so more events may follow). */
  hash(): string {
    if (this.digest === undefined) throw new Error('trace: this trace was built without hashing');
    return this.digest.hex();
  }

  lines(): string[] {
    return this.events.map(formatEvent);
  }
}

/** A trace that records nothing: for benchmarks and for components built without one. */
export const NO_TRACE = new Trace(false, false);
