import { Cluster, type ClusterConfig } from '../../cluster/cluster.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { TraceEvent } from '../../trace/trace.js';
import { KindTrace } from '../drift/kind-trace.js';
import { PrimaryTracker } from '../drift/primary.js';

export interface StormSpec {
  readonly leases: number;
  /** TTL in seconds, by lease index (0-based). */
  readonly ttl: number | ((i: number) => number);
  /** When the first grant is proposed; the rest follow evenly over grantSpanUs (0: the same instant). */
  readonly grantAtUs?: Micros;
  readonly grantSpanUs?: Micros;
  /** A leader transfer then: the new leader's Promote piles every deadline up at promote + ET + TTL. */
  readonly transferAtUs?: Micros;
  readonly cluster?: Partial<ClusterConfig>;
  /** Extra actions on the cluster, at their times (faults during the drain). */
  readonly actions?: readonly { readonly at: Micros; readonly run: (c: Cluster) => void }[];
  /** Gives up at this time if leases are still unrevoked. */
  readonly untilUs: Micros;
  /** false: keep no event list, only the figures below (a million leases). Default true. */
  readonly keepEvents?: boolean;
}

export interface StormRun {
  readonly cluster: Cluster;
  /** Promotes, the primary's grants, offers (`lease-expired`) and revokes, and promoted deadlines. */
  readonly events: readonly TraceEvent[];
  /** When each revoke applied on the current primary, in order. */
  readonly revokeTimes: readonly Micros[];
  readonly revoked: number;
  /** The earliest deadline the current primary set (since its Promote, or at grant). */
  readonly firstDeadlineUs: Micros;
  /** Virtual time when the last lease was revoked, or undefined if some never were. */
  readonly drainedAtUs: Micros | undefined;
}

const KINDS = new Set([
  'lessor-promote',
  'lessor-demote',
  'member-crash',
  'raft-transfer',
  'lease-promoted',
  'lease-grant',
  'lease-expired',
  'lease-revoke',
]);
const PER_MEMBER = new Set(['lease-grant', 'lease-expired', 'lease-revoke']);

/**
 * A revoke storm on the real 3-member cluster: leases granted straight through the leader's raftRequest
 * (no client round trips), then left to expire, optionally piled up by a leader transfer. The trace keeps
 * only what the storm monitors read, and per-lease events only from the current primary.
 */
export function runStorm(spec: StormSpec): StormRun {
  const primary = new PrimaryTracker();
  const revokeTimes: Micros[] = [];
  let firstDeadlineUs = Number.POSITIVE_INFINITY;
  const trace = new KindTrace((e) => {
    if (!KINDS.has(e.kind)) return false;
    primary.feed(e);
    if (e.kind === 'lessor-promote' && e.fields.leases > 0) firstDeadlineUs = Number.POSITIVE_INFINITY;
    if (e.kind === 'lease-promoted') firstDeadlineUs = Math.min(firstDeadlineUs, e.fields.expiry);
    if (!PER_MEMBER.has(e.kind)) return true;
    if (!primary.isCurrent(e.member)) return false;
    if (e.kind === 'lease-grant') firstDeadlineUs = Math.min(firstDeadlineUs, e.fields.expiry);
    if (e.kind === 'lease-revoke') revokeTimes.push(e.t);
    return true;
  }, spec.keepEvents ?? true);
  const c = new Cluster(spec.cluster ?? {}, { trace });
  const grantAt = spec.grantAtUs ?? MICROS_PER_SECOND;
  const span = spec.grantSpanUs ?? 0;
  const ttl = typeof spec.ttl === 'number' ? () => spec.ttl as number : spec.ttl;
  // Grants proposed in the same microsecond go out together, in index order.
  let i = 0;
  const grantUpTo = (limit: number): void => {
    const leader = c.leader();
    for (; i < limit; i++) leader?.raftRequest({ type: 'LeaseGrant', id: BigInt(i + 1), ttl: ttl(i) }, () => {});
  };
  if (span === 0) c.sched.at(grantAt, () => grantUpTo(spec.leases));
  else {
    for (let t = 0; t < span; t += 1000)
      c.sched.at(grantAt + t, () => grantUpTo(Math.min(spec.leases, Math.ceil(((t + 1000) * spec.leases) / span))));
  }
  if (spec.transferAtUs !== undefined) {
    c.sched.at(spec.transferAtUs, () => {
      const l = c.leader();
      if (l !== undefined) c.transferLeader(c.names.find((n) => n !== l.name)!);
    });
  }
  for (const a of spec.actions ?? []) c.sched.at(a.at, () => a.run(c));
  let drainedAtUs: Micros | undefined;
  c.runUntil(grantAt + span);
  while (c.now() < spec.untilUs) {
    c.runUntil(Math.min(spec.untilUs, c.now() + MICROS_PER_SECOND));
    if (revokeTimes.length >= spec.leases) {
      drainedAtUs = revokeTimes.at(-1);
      break;
    }
  }
  return { cluster: c, events: trace.events, revokeTimes, revoked: revokeTimes.length, firstDeadlineUs, drainedAtUs };
}

/** Each lease's deadline on the primary that revoked it: its grant's, or its latest Promote's. */
export function stormDeadlines(events: readonly TraceEvent[]): Map<bigint, Micros> {
  const out = new Map<bigint, Micros>();
  for (const e of events) {
    if ((e.kind === 'lease-grant' || e.kind === 'lease-promoted') && e.lease !== undefined)
      out.set(e.lease, e.fields.expiry);
  }
  return out;
}
