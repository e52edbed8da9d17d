/**
 * What the live view's page receives from `serve --playground`, as JSON (one Server-Sent Event per frame):
 * the served cluster's state at the paced virtual instant, the messages put on the wire and the run-loop
 * passes since the last frame, the faults so far and the newest trace lines. Lease IDs travel as decimal
 * strings (JSON has no 64-bit integers). Browser-safe: the page decodes frames with this module.
 */
import type { Micros } from '../../clock/time.js';
import type { ClientView } from '../../scenario/replay/runner.js';
import type { Snapshot } from '../../playground/snapshot.js';
import type { TraceEvent } from '../../trace/trace.js';

export interface LiveMessage {
  readonly from: string;
  readonly to: string;
  readonly sentUs: Micros;
  /** Null when a partition dropped it as it was sent. */
  readonly arriveUs: Micros | null;
  readonly kind: string;
  readonly lease?: string;
  readonly carries?: readonly string[];
}

/** The snapshot as JSON: lease IDs as strings; a lease without a primary has no remainingUs/expiryUs. */
export type WireSnapshot = Omit<Snapshot, 'leases' | 'keys' | 'clients'> & {
  readonly leases: ReadonlyArray<Omit<Snapshot['leases'][number], 'id'> & { readonly id: string }>;
  readonly keys: ReadonlyArray<Omit<Snapshot['keys'][number], 'lease'> & { readonly lease: string }>;
  readonly clients: ReadonlyArray<
    Omit<ClientView, 'keepAlives'> & { readonly keepAlives: ReadonlyArray<{ lease: string; alive: boolean }> }
  >;
};

export interface LiveFrame {
  /** The virtual instant of the snapshot. */
  readonly t: Micros;
  readonly snap: WireSnapshot;
  readonly messages: readonly LiveMessage[];
  /** Run-loop passes of primary lessors: [member, t]. */
  readonly passes: ReadonlyArray<readonly [string, Micros]>;
  /** How many messages were left out of this frame (a burst larger than a frame carries). */
  readonly skipped: number;
  /** Every fault event so far (member-pause, net-partition, ...), as trace events (faults are few). */
  readonly faults: readonly TraceEvent[];
  /** Trace lines narrated since the last frame (the newest ones when there were many). */
  readonly lines: readonly string[];
  /** The scenario's end (µs), or null when serve runs until stopped. */
  readonly endUs: Micros | null;
  /** Raft's tick (the heartbeat interval): the election clocks below count these. */
  readonly tickUs: Micros;
  /** Election clock changes since the last frame: [member, t, elapsed ticks, randomized timeout in ticks]. */
  readonly clocks: ReadonlyArray<readonly [string, Micros, number, number]>;
  /** Member name → its client URL, for the page to print. */
  readonly endpoints: Readonly<Record<string, string>>;
  /** Each real connection (gRPCN): the member it talks to and the methods it called, in first-call order. */
  readonly conns: Readonly<Record<string, { readonly to: string; readonly methods: readonly string[] }>>;
}

export function encodeSnapshot(s: Snapshot): WireSnapshot {
  return {
    ...s,
    leases: s.leases.map((l) => ({ ...l, id: l.id.toString() })),
    keys: s.keys.map((k) => ({ ...k, lease: k.lease.toString() })),
    clients: s.clients.map((c) => ({
      ...c,
      keepAlives: c.keepAlives.map((k) => ({ lease: k.lease.toString(), alive: k.alive })),
    })),
  };
}

export function decodeSnapshot(s: WireSnapshot): Snapshot {
  return {
    ...s,
    leases: s.leases.map((l) => ({ ...l, id: BigInt(l.id) })),
    keys: s.keys.map((k) => ({ ...k, lease: BigInt(k.lease) })),
    clients: s.clients.map((c) => ({
      ...c,
      keepAlives: c.keepAlives.map((k) => ({ lease: BigInt(k.lease), alive: k.alive })),
    })),
  };
}
