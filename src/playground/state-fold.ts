/**
 * The state at an instant, folded from the trace alone: members, each member's lessor and keyspace, and
 * the clients. Folding events is far cheaper than simulating them, so the playground records the run
 * once and scrubs back by re-folding, not by replaying; spec/playground/state-fold.spec.ts holds the
 * fold to the live cluster's state at many instants of every library scenario.
 */
import type { Micros } from '../clock/time.js';
import type { ClientView } from '../scenario/replay/runner.js';
import { formatLeaseId } from '../trace/trace.js';
import type { DeadlineBook } from './deadlines.js';
import {
  actingPrimary,
  LISTED_LEASES,
  type KeyState,
  type LeaseState,
  type MemberState,
  type Snapshot,
} from './snapshot.js';
import { eventLease, eventMember, eventTime, type TraceEvent } from './trace-adapter.js';

interface FoldLease {
  ttl: number;
  expiry: Micros;
  readonly keys: Set<string>;
}

interface FoldMember {
  status: MemberState['status'];
  role: string;
  term: number;
  primary: boolean;
  readonly leases: Map<bigint, FoldLease>;
  readonly keys: Map<string, { lease: bigint; modRevision: number }>;
  revision: number;
}

interface FoldClient {
  paused: boolean;
  readonly keepAlives: Map<bigint, boolean>;
  /** Keep-alive requests sent and not yet answered: lease → when and to which member. */
  readonly inFlight: Map<bigint, { readonly sentUs: Micros; readonly endpoint: string }>;
}

/** A renewal on its way: client → the member it talks to (→ the leader, when that is another member). */
export interface RenewalInFlight {
  readonly client: string;
  readonly lease: bigint;
  readonly label: string | undefined;
  readonly endpoint: string;
  readonly sentUs: Micros;
}

const FOREVER = Number.POSITIVE_INFINITY;

export class StateFold {
  private readonly members = new Map<string, FoldMember>();
  private readonly clients = new Map<string, FoldClient>();
  /** Lease labels as the harness bound them (each grant's answer names its label). */
  private readonly labels = new Map<bigint, string>();
  /** How many events have been folded in. */
  count = 0;

  constructor(
    readonly memberNames: readonly string[],
    private readonly clientNames: ReadonlySet<string>,
  ) {
    for (const name of memberNames)
      this.members.set(name, {
        status: 'running',
        role: 'follower',
        term: 0,
        primary: false,
        leases: new Map(),
        keys: new Map(),
        revision: 1,
      });
  }

  fold(e: TraceEvent): void {
    this.count++;
    const who = eventMember(e);
    const m = this.members.get(who);
    if (m !== undefined) return this.foldMember(m, e);
    const label = e.kind === 'ctl-granted' ? e.fields.label : undefined;
    const id = eventLease(e);
    if (label !== undefined && id !== undefined) this.labels.set(id, label);
    if (this.clientNames.has(who)) this.foldClient(who, e);
  }

  private foldMember(m: FoldMember, e: TraceEvent): void {
    const id = eventLease(e);
    switch (e.kind) {
      case 'raft-role':
        m.role = e.fields.role;
        m.term = e.fields.term;
        return;
      case 'raft-term':
        m.term = e.fields.term;
        return;
      case 'member-pause':
        m.status = 'paused';
        return;
      case 'member-resume':
        if (m.status === 'paused') m.status = 'running';
        return;
      case 'member-crash':
        m.status = 'crashed';
        m.primary = false;
        for (const l of m.leases.values()) l.expiry = FOREVER;
        return;
      case 'member-restart':
        // The lessor recovers every lease from the backend at forever; raft restarts as a follower.
        m.status = 'running';
        m.role = 'follower';
        return;
      case 'lessor-promote':
        m.primary = true;
        return;
      case 'lessor-demote':
        m.primary = false;
        for (const l of m.leases.values()) l.expiry = FOREVER;
        return;
      case 'lease-grant':
        if (id !== undefined)
          m.leases.set(id, {
            ttl: e.fields.ttl,
            expiry: e.fields.expiry,
            keys: new Set(),
          });
        return;
      case 'lease-renew':
      case 'lease-promoted': {
        const l = id === undefined ? undefined : m.leases.get(id);
        if (l === undefined) return;
        l.expiry = e.fields.expiry;
        if (e.kind === 'lease-renew') l.ttl = e.fields.ttl;
        return;
      }
      case 'lease-revoke':
        if (id !== undefined) m.leases.delete(id);
        return;
      case 'lease-attach':
      case 'lease-detach': {
        const l = id === undefined ? undefined : m.leases.get(id);
        for (const k of e.fields.keys) e.kind === 'lease-attach' ? l?.keys.add(k) : l?.keys.delete(k);
        return;
      }
      case 'kv-put': {
        const { key, rev, lease } = e.fields;
        m.keys.set(key, { lease, modRevision: rev });
        m.revision = Math.max(m.revision, rev);
        return;
      }
      case 'kv-delete': {
        m.keys.delete(e.fields.key);
        m.revision = Math.max(m.revision, e.fields.rev);
        return;
      }
    }
  }

  private foldClient(name: string, e: TraceEvent): void {
    let c = this.clients.get(name);
    if (c === undefined) {
      c = { paused: false, keepAlives: new Map(), inFlight: new Map() };
      this.clients.set(name, c);
    }
    const id = eventLease(e);
    if (e.kind === 'client-pause') c.paused = true;
    else if (e.kind === 'client-resume') c.paused = false;
    else if (e.kind === 'client-keepalive-start' && id !== undefined) c.keepAlives.set(id, true);
    else if (e.kind === 'client-keepalive-closed' && id !== undefined) {
      c.keepAlives.set(id, false);
      c.inFlight.delete(id);
    } else if (e.kind === 'client-keepalive-send' && id !== undefined)
      c.inFlight.set(id, { sentUs: eventTime(e), endpoint: e.fields.endpoint });
    else if (e.kind === 'client-keepalive-recv' && id !== undefined) c.inFlight.delete(id);
  }

  /** Renewals sent and not answered yet, oldest first. */
  inFlight(): RenewalInFlight[] {
    const out: RenewalInFlight[] = [];
    for (const [client, c] of this.clients)
      for (const [lease, f] of c.inFlight) out.push({ client, lease, label: this.labels.get(lease), ...f });
    return out.sort((a, b) => a.sentUs - b.sentUs);
  }

  /**
   * Every lease of the member `snap` lists them from, in grant order, as the share of its TTL left at
   * `snap.t` (0 to 1), or -1 when it is frozen at forever (no primary). One typed array, not objects: a
   * frame draws a storm's thousands of leases from it.
   */
  leaseFills(snap: Snapshot): Float32Array {
    const name = snap.primary ?? snap.members.find((m) => m.status !== 'crashed')?.name;
    const source = name === undefined ? undefined : this.members.get(name);
    const out = new Float32Array(source?.leases.size ?? 0);
    let i = 0;
    for (const l of source?.leases.values() ?? [])
      out[i++] = l.expiry === FOREVER ? -1 : Math.max(0, Math.min(1, (l.expiry - snap.t) / (l.ttl * 1_000_000)));
    return out;
  }

  /** The state as a Snapshot at `t` (at or after the last event folded in). */
  view(t: Micros, deadlines: DeadlineBook): Snapshot {
    const labels = this.labels;
    const members = this.memberNames.map((name): MemberState => {
      const m = this.members.get(name)!;
      if (m.status === 'crashed') return { name, status: 'crashed', role: '-', term: m.term, primary: false };
      return { name, status: m.status, role: m.role, term: m.term, primary: m.primary };
    });
    const primary = actingPrimary(members);
    const sourceName = primary ?? members.find((m) => m.status !== 'crashed')?.name;
    const source = sourceName === undefined ? undefined : this.members.get(sourceName);
    // Only the listed few are copied out: a frame at speed should not walk a storm's thousands of leases.
    const listed: [bigint, FoldLease][] = [];
    for (const e of source?.leases ?? []) {
      if (listed.length === LISTED_LEASES) break;
      listed.push(e);
    }
    const leases = listed.map(([id, l]): LeaseState => {
      const finite = l.expiry !== FOREVER;
      return {
        id,
        hex: formatLeaseId(id),
        label: labels.get(id),
        ttl: l.ttl,
        remainingUs: finite ? l.expiry - t : undefined,
        expiryUs: finite ? l.expiry : undefined,
        beforeLeaderChangeUs: deadlines.get(id)?.beforeLeaderChangeUs,
        keys: [...l.keys].sort(),
      };
    });
    const keys =
      source === undefined
        ? []
        : [...source.keys]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(
              ([key, k]): KeyState => ({
                key,
                lease: k.lease,
                label: k.lease === 0n ? undefined : labels.get(k.lease),
                modRevision: k.modRevision,
              }),
            );
    const clients: ClientView[] = [...this.clients].map(([name, c]) => ({
      name,
      paused: c.paused,
      keepAlives: [...c.keepAlives].map(([lease, alive]) => ({ lease, alive })),
    }));
    return {
      t,
      members,
      primary,
      leases,
      leaseCount: source?.leases.size ?? 0,
      keys,
      revision: source?.revision ?? 0,
      clients,
    };
  }
}

/**
 * The scenario's client processes (c1, writer-2): every name a step gives as `client`. A holder's client
 * is the holder's own (its keep-alives are the holder's business), so the panel leaves it out.
 */
export function clientNamesOf(steps: readonly object[]): Set<string> {
  const out = new Set<string>();
  const holders = new Set<string>();
  for (const s of steps) {
    const c = (s as { client?: unknown }).client;
    if (typeof c === 'string') ((s as { kind?: unknown }).kind === 'holder' ? holders : out).add(c);
  }
  for (const h of holders) out.delete(h);
  return out;
}
