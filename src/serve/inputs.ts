/**
 * What real clients did to a served cluster, as the simulation saw it: every input at its virtual instant.
 * `serve --record LOG` writes one JSON object per line (a `served` header line first); `run FILE --input LOG`
 * feeds them back in the same order at the same instants, so the served run replays to the same trace.
 */
import { readAppEvent } from './app-inputs.js';
import { liveFaultOf, type LiveFault } from './live/faults.js';
import type { Json } from './wire.js';

export const UNARY_METHODS = [
  'Range',
  'Put',
  'DeleteRange',
  'Txn',
  'Compact',
  'LeaseGrant',
  'LeaseRevoke',
  'LeaseTimeToLive',
  'LeaseLeases',
  'MemberList',
  'Status',
  'Alarm',
  'Defragment',
  'HashKV',
  'MoveLeader',
  'Authenticate',
] as const;
export type UnaryMethod = (typeof UNARY_METHODS)[number];
export type StreamMethod = 'LeaseKeepAlive' | 'Watch';

export type Input =
  /** A client opened a connection to a member (the first call seen on it). */
  | { readonly t: number; readonly kind: 'connect'; readonly conn: number; readonly member: string }
  | {
      readonly t: number;
      readonly kind: 'unary';
      readonly conn: number;
      readonly call: number;
      readonly method: UnaryMethod;
      readonly req: Json;
    }
  | {
      readonly t: number;
      readonly kind: 'open';
      readonly conn: number;
      readonly call: number;
      readonly method: StreamMethod;
      /** The call carried gRPC metadata `hasleader: true`. */
      readonly requireLeader: boolean;
    }
  /** One message on an open stream. */
  | { readonly t: number; readonly kind: 'send'; readonly call: number; readonly req: Json }
  /** The client finished sending (CloseSend): the stream owes it the answers to what it sent. */
  | { readonly t: number; readonly kind: 'half-close'; readonly call: number }
  /** The client cancelled the call (or its deadline passed, or its connection closed). */
  | { readonly t: number; readonly kind: 'cancel'; readonly call: number }
  /** A fault clicked on the live view (`serve --playground`). */
  | ({ readonly t: number; readonly kind: 'fault' } & LiveFault)
  /** An event of a program under test (a line, a write, a belief, a start or exit), as it was traced. */
  | { readonly t: number; readonly kind: 'app'; readonly event: AppEventJson }
  /** A step on a program was performed at `t` (`why`: what kept it from acting). */
  | { readonly t: number; readonly kind: 'app-step'; readonly app: string; readonly why?: string };

/** A traced event as a record holds it: the lease ID as a decimal string. */
export interface AppEventJson {
  readonly member: string;
  readonly kind: string;
  readonly lease?: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** The first line of a record: what a replay needs besides the inputs. */
export interface RecordHeader {
  readonly served: 1;
  /** The scenario file served, or null for the default cluster. */
  readonly scenario: string | null;
  /** The scenario's name, checked against the FILE a replay is given. */
  readonly name: string;
  readonly seed: number;
  readonly profile: 'v3.4' | 'v3.5';
}

export function isInput(x: unknown): x is Input {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  if (!Number.isSafeInteger(o.t) || typeof o.kind !== 'string') return false;
  switch (o.kind) {
    case 'connect':
      return Number.isSafeInteger(o.conn) && typeof o.member === 'string';
    case 'unary':
      return (
        Number.isSafeInteger(o.call) &&
        Number.isSafeInteger(o.conn) &&
        (UNARY_METHODS as readonly unknown[]).includes(o.method) &&
        typeof o.req === 'object' &&
        o.req !== null
      );
    case 'open':
      return (
        Number.isSafeInteger(o.call) &&
        Number.isSafeInteger(o.conn) &&
        (o.method === 'LeaseKeepAlive' || o.method === 'Watch') &&
        typeof o.requireLeader === 'boolean'
      );
    case 'send':
      return Number.isSafeInteger(o.call) && typeof o.req === 'object' && o.req !== null;
    case 'half-close':
    case 'cancel':
      return Number.isSafeInteger(o.call);
    case 'fault':
      // Any member name: a record's names are checked against the scenario when it replays.
      return typeof liveFaultOf(o, typeof o.member === 'string' ? [o.member] : []) !== 'string';
    case 'app': {
      // Its shape only: parseRecord reads its kind and fields with readAppEvent.
      const e = o.event as Partial<AppEventJson> | null;
      return (
        typeof e === 'object' &&
        e !== null &&
        typeof e.member === 'string' &&
        typeof e.kind === 'string' &&
        (e.lease === undefined || (typeof e.lease === 'string' && /^-?\d{1,20}$/.test(e.lease))) &&
        (e.fields === undefined || (typeof e.fields === 'object' && e.fields !== null))
      );
    }
    case 'app-step':
      return typeof o.app === 'string' && (o.why === undefined || typeof o.why === 'string');
    default:
      return false;
  }
}

/** The last line of a record: the virtual instant serve stopped at. */
export interface RecordEnd {
  readonly t: number;
  readonly kind: 'end';
}

export interface ServedRecord {
  readonly header: RecordHeader;
  readonly inputs: readonly Input[];
  /** Where serve stopped; absent when the record was cut short (serve was killed). */
  readonly endUs: number | undefined;
}

/** A record's text as its header and inputs, or the first problem as `line N: ...`. */
export function parseRecord(text: string): ServedRecord | string {
  const lines = text.split('\n');
  const inputs: Input[] = [];
  let header: RecordHeader | undefined;
  let last = Number.NEGATIVE_INFINITY;
  let endUs: number | undefined;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return `line ${i + 1}: not JSON`;
    }
    if (header === undefined) {
      const h = v as Partial<RecordHeader> | null;
      if (
        h === null ||
        typeof h !== 'object' ||
        h.served !== 1 ||
        !Number.isSafeInteger(h.seed) ||
        typeof h.name !== 'string' ||
        (h.profile !== 'v3.4' && h.profile !== 'v3.5')
      )
        return `line ${i + 1}: not a lessor-sim serve record (expected a {"served":1,...} first line)`;
      header = h as RecordHeader;
      continue;
    }
    if (endUs !== undefined) return `line ${i + 1}: input after the end line`;
    const o = v as Partial<RecordEnd>;
    if (o !== null && typeof o === 'object' && o.kind === 'end' && Number.isSafeInteger(o.t) && o.t! >= last) {
      endUs = o.t;
      continue;
    }
    if (!isInput(v)) return `line ${i + 1}: not a served input`;
    // A program's event becomes a typed trace event here, once: its kind and fields checked.
    const problem = v.kind === 'app' ? readAppEvent(v.t, v.event) : undefined;
    if (typeof problem === 'string') return `line ${i + 1}: ${problem}`;
    if (v.t < last) return `line ${i + 1}: time ${v.t} goes back (previous ${last})`;
    last = v.t;
    inputs.push(v);
  }
  if (header === undefined) return 'line 1: empty record';
  return { header, inputs, endUs };
}
