import { formatSeconds, type Micros } from '../clock/time.js';
import { newDigest, type LineDigest } from './digest.js';

/** Field values a trace event may carry. Lists are joined with commas; strings with spaces are quoted. */
export type FieldValue = string | number | bigint | boolean | readonly (string | number | bigint)[];

/**
 * One state change. Every layer emits these and everything downstream (golden files, explain, the
 * timeline, property monitors) reads them: one source of truth.
 */
export interface TraceEvent {
  readonly t: Micros;
  /** The process that changed state: a member (n1), a client (c1), or `sim` for the harness. */
  readonly member: string;
  /** What happened, kebab-case, prefixed by the subsystem: lease-grant, raft-leader, kv-put … */
  readonly kind: string;
  readonly lease?: bigint;
  readonly fields?: Readonly<Record<string, FieldValue>>;
}

/** Lease IDs print as etcd prints them: lower-case hex of the ID as an unsigned 64-bit number. */
export function formatLeaseId(id: bigint): string {
  return BigInt.asUintN(64, id).toString(16);
}

function formatValue(v: FieldValue): string {
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
  if (e.fields !== undefined) {
    for (const k of Object.keys(e.fields)) line += ` ${k}=${formatValue(e.fields[k]!)}`;
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
  private readonly digest: LineDigest = newDigest();
  private count = 0;

  constructor(
    readonly enabled = true,
    private readonly keep = true,
    /** Off for campaigns that never read the hash: formatting and hashing each line is most of a trace's cost. */
    private readonly hashing = true,
  ) {}

  emit(e: TraceEvent): void {
    if (!this.enabled) return;
    this.count++;
    if (this.hashing) {
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
    if (!this.hashing) throw new Error('trace: this trace was built without hashing');
    return this.digest.hex();
  }

  lines(): string[] {
    return this.events.map(formatEvent);
  }
}

/** A trace that records nothing: for benchmarks and for components built without one. */
export const NO_TRACE = new Trace(false, false);
