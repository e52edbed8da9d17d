/**
 * One finished run as the monitors read it: the trace indexed by kind and by lease, each lease's life as
 * the clients saw it, the first revoke of each lease on each member, the scenario's own facts (which
 * leases a step revoked on purpose, when faults were injected), who was primary when, and the cluster as
 * it stood at the end. Built by one pass over the trace, once per run, and shared by every monitor, so
 * that monitors read these views rather than walking the trace themselves.
 */
import type { Micros } from '../../clock/time.js';
import type { Cluster } from '../../cluster/cluster.js';
import type { RunResult } from '../../scenario/replay/runner.js';
import type { Scenario, Step } from '../../scenario/types.js';
import { isKind, type TraceEvent, type TraceEventMap, type TraceKind } from '../../trace/trace.js';
import { type LeaseLife, LeaseLifeTracker } from './lease-lives.js';
import { runTimings, type RunTimings } from './run-timings.js';
import type { PropertyName } from './property-names.js';
import type { ExpectCandidate, Violation } from './violation.js';

/**
 * A fault step and when its effect ends: a pause or stall at its `for` or its resume/unstall, a crash at
 * the member's restart, a partition at the next heal (Infinity when nothing ends it); other faults are
 * instants.
 */
export interface FaultWindow {
  readonly kind: Step['kind'];
  readonly atUs: Micros;
  readonly endUs: Micros;
  readonly member?: string;
}

const FAULT_KINDS: ReadonlySet<Step['kind']> = new Set([
  'crash',
  'restart',
  'pause',
  'resume',
  'stall',
  'unstall',
  'partition',
  'heal',
  'clock',
  'transfer-leader',
]);

interface Interval {
  readonly from: Micros;
  to: Micros;
}

/** What the pass keeps about one lease: its events and its life so far. */
interface LeaseRecord {
  readonly indices: number[];
  readonly tracker: LeaseLifeTracker;
}

export class RunView {
  readonly events: readonly TraceEvent[];
  readonly scenario: Scenario;
  readonly timings: RunTimings;
  /** The end of the run. */
  readonly endUs: Micros;
  readonly faults: readonly FaultWindow[];
  /**
   * Leases a client revoked or asked to: those a `revoke` step names and those of lock sessions an
   * `unlock` step closed (`client-session-done reason=cancelled`). Their revokes are not the lessor's.
   */
  readonly explicitRevokes: ReadonlySet<bigint>;
  /** Every granted lease's life (lease-lives.ts), in the order the trace first names each lease. */
  readonly lives: ReadonlyMap<bigint, Readonly<LeaseLife>>;
  private readonly byKind = new Map<string, number[]>();
  private readonly byLease = new Map<bigint, LeaseRecord>();
  private readonly primary = new Map<string, Interval[]>();
  /** member → lease (as an unsigned 64-bit ID) → index of the member's first `lease-revoke` of it. */
  private readonly revokes = new Map<string, Map<bigint, number>>();

  constructor(readonly result: RunResult) {
    this.events = result.trace.events;
    this.scenario = result.scenario;
    this.timings = runTimings(result.scenario);
    this.endUs = Math.max(result.scenario.durationUs, result.cluster?.now() ?? 0);
    const events = this.events;
    const byKind = this.byKind;
    const byLease = this.byLease;
    // One pass, with each map's insertions written out so each stays monomorphic.
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const k = e.kind;
      const ofKind = byKind.get(k);
      if (ofKind === undefined) byKind.set(k, [i]);
      else ofKind.push(i);
      const id = e.lease;
      if (id !== undefined) {
        let rec = byLease.get(id);
        if (rec === undefined) byLease.set(id, (rec = { indices: [i], tracker: new LeaseLifeTracker(id) }));
        else rec.indices.push(i);
        rec.tracker.add(e, i);
        if (k === 'lease-revoke') this.trackRevoke(e.member, id, i);
      }
      if (k === 'lessor-promote' || k === 'lessor-demote' || k === 'member-crash') this.trackPrimary(e);
    }
    const lives = new Map<bigint, LeaseLife>();
    for (const [id, rec] of byLease) if (rec.tracker.life.grantUs !== undefined) lives.set(id, rec.tracker.life);
    this.lives = lives;
    this.faults = faultWindows(result.scenario.steps);
    const revoked = new Set<bigint>();
    for (const s of result.scenario.steps) {
      const id = s.kind === 'revoke' ? result.labels.id(s.lease) : undefined;
      if (id !== undefined) revoked.add(id);
    }
    for (const i of this.ofKind('client-session-done')) {
      const e = this.eventOf(i, 'client-session-done');
      if (e.fields.reason === 'cancelled' && e.lease !== undefined) revoked.add(e.lease);
    }
    this.explicitRevokes = revoked;
  }

  get cluster(): Cluster | undefined {
    return this.result.cluster;
  }

  /** Indices of every event of this kind, in trace order. */
  ofKind(kind: TraceKind): readonly number[] {
    return this.byKind.get(kind) ?? [];
  }

  /** Indices of every event about this lease, in trace order. */
  ofLease(id: bigint): readonly number[] {
    return this.byLease.get(id)?.indices ?? [];
  }

  /** The index of the first `lease-revoke` of the lease on any member, if any. */
  firstRevoke(id: bigint): number | undefined {
    return this.byLease.get(id)?.tracker.life.revokeIndex;
  }

  /**
   * The index of the member's first `lease-revoke` of the lease, if any. IDs compare as etcd prints
   * them (unsigned 64-bit), so a key's `lease` field finds its lease's revoke.
   */
  firstRevokeOn(member: string, id: bigint): number | undefined {
    return this.revokes.get(member)?.get(BigInt.asUintN(64, id));
  }

  leases(): IterableIterator<bigint> {
    return this.byLease.keys();
  }

  at(i: number): TraceEvent {
    return this.events[i]!;
  }

  /** The event at `i`, narrowed to `kind`: for an index that `ofKind(kind)` listed, so its fields read typed. */
  eventOf<K extends TraceKind>(i: number, kind: K): TraceEventMap[K] {
    const e = this.events[i]!;
    if (isKind(e, kind)) return e;
    throw new Error(`trace line ${i + 1} is a ${e.kind} event, not ${kind}`);
  }

  labelOf(id: bigint): string | undefined {
    return this.result.labels.labelOf(id);
  }

  /** Whether the member's lessor was primary at `t` (after every event at `t` up to index `i`). */
  wasPrimary(member: string, t: Micros): boolean {
    return (this.primary.get(member) ?? []).some((iv) => iv.from <= t && t < iv.to);
  }

  /** How long within [from, to] no member's lessor was primary. */
  timeWithoutPrimary(from: Micros, to: Micros): Micros {
    const ivs = [...this.primary.values()]
      .flat()
      .map((iv) => [Math.max(iv.from, from), Math.min(iv.to, to)] as const)
      .filter(([a, b]) => a < b);
    ivs.sort((x, y) => x[0] - y[0]);
    let covered = 0;
    let reach = from;
    for (const [a, b] of ivs) {
      if (b <= reach) continue;
      covered += b - Math.max(a, reach);
      reach = b;
    }
    return to - from - covered;
  }

  /** The first fault step in [from, to], if any. */
  faultWithin(from: Micros, to: Micros, pred: (f: FaultWindow) => boolean = () => true): FaultWindow | undefined {
    return this.faults.find((f) => f.endUs >= from && f.atUs <= to && pred(f));
  }

  /** Whether, at some time in [from, to], more members were crashed at once than a quorum can spare. */
  quorumLostWithin(from: Micros, to: Micros): boolean {
    const n = this.scenario.cluster.members;
    const spare = n - (Math.floor(n / 2) + 1);
    const crashes = this.faults.filter((f) => f.kind === 'crash' && f.endUs >= from && f.atUs <= to);
    return crashes.some(
      (c) => crashes.filter((o) => o.atUs <= Math.max(c.atUs, from) && o.endUs > Math.max(c.atUs, from)).length > spare,
    );
  }

  violation(
    property: PropertyName,
    index: number,
    message: string,
    expects: readonly ExpectCandidate[],
    atUs?: Micros,
  ): Violation {
    const event = this.at(index);
    return { property, atUs: atUs ?? event.t, event, traceLine: index + 1, message, expects };
  }

  /** Whether the member applied any `lease-revoke`. */
  revokedAnyOn(member: string): boolean {
    return this.revokes.has(member);
  }

  private trackRevoke(member: string, id: bigint, i: number): void {
    const key = BigInt.asUintN(64, id);
    const ofMember = this.revokes.get(member);
    if (ofMember === undefined) this.revokes.set(member, new Map([[key, i]]));
    else if (!ofMember.has(key)) ofMember.set(key, i);
  }

  private trackPrimary(e: TraceEvent): void {
    if (e.kind === 'lessor-promote') {
      const open = this.primary.get(e.member)?.at(-1);
      if (open !== undefined && open.to === Infinity) return;
      push(this.primary, e.member, { from: e.t, to: Infinity });
    } else if (e.kind === 'lessor-demote' || e.kind === 'member-crash') {
      const open = this.primary.get(e.member)?.at(-1);
      if (open !== undefined && open.to === Infinity) open.to = e.t;
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a === undefined) m.set(k, [v]);
  else a.push(v);
}

function faultWindows(steps: readonly Step[]): FaultWindow[] {
  const out: FaultWindow[] = [];
  steps.forEach((s, k) => {
    if (!FAULT_KINDS.has(s.kind)) return;
    const member = 'member' in s ? s.member : s.kind === 'transfer-leader' ? s.to : undefined;
    const ender = (pred: (x: Step) => boolean): Micros => {
      for (let j = k + 1; j < steps.length; j++) if (pred(steps[j]!)) return steps[j]!.atUs;
      return Infinity;
    };
    let endUs = s.atUs;
    if ((s.kind === 'pause' || s.kind === 'stall') && s.forUs !== undefined) endUs = s.atUs + s.forUs;
    else if (s.kind === 'pause')
      endUs = ender((x) => x.kind === 'resume' && x.member === s.member && x.client === s.client);
    else if (s.kind === 'stall')
      endUs = ender((x) => x.kind === 'unstall' && x.member === s.member && x.loop === s.loop);
    else if (s.kind === 'crash') endUs = ender((x) => x.kind === 'restart' && x.member === s.member);
    else if (s.kind === 'partition') endUs = ender((x) => x.kind === 'heal');
    out.push({ kind: s.kind, atUs: s.atUs, endUs, ...(member !== undefined ? { member } : {}) });
  });
  return out;
}
