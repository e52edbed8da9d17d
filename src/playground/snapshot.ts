/** What the learner sees at one virtual instant, read off the live cluster of a paused replay. */
import type { Micros } from '../clock/time.js';
import type { Cluster } from '../cluster/cluster.js';
import type { ClientView } from '../scenario/replay/runner.js';
import type { LabelBook } from '../scenario/replay/labels.js';
import { formatLeaseId } from '../trace/trace.js';
import type { DeadlineBook } from './deadlines.js';

export interface MemberState {
  readonly name: string;
  readonly status: 'running' | 'paused' | 'crashed';
  readonly role: string;
  /** The current term; for a crashed member, the last term it persisted. */
  readonly term: number;
  /** Whether this member's lessor is primary (keeps real expiries) or demoted (every lease at forever). */
  readonly primary: boolean;
}

export interface LeaseState {
  readonly id: bigint;
  readonly hex: string;
  readonly label: string | undefined;
  readonly ttl: number;
  /** Time left as the primary sees it; undefined with no acting primary (every lessor says forever). */
  readonly remainingUs: Micros | undefined;
  readonly expiryUs: Micros | undefined;
  readonly beforeLeaderChangeUs: Micros | undefined;
  readonly keys: readonly string[];
}

export interface KeyState {
  readonly key: string;
  readonly lease: bigint;
  readonly label: string | undefined;
  readonly modRevision: number;
}

export interface Snapshot {
  readonly t: Micros;
  readonly members: readonly MemberState[];
  /** The member whose lessor is primary, if any. */
  readonly primary: string | undefined;
  readonly leases: readonly LeaseState[];
  readonly leaseCount: number;
  readonly keys: readonly KeyState[];
  readonly revision: number;
  readonly clients: readonly ClientView[];
}

/** At most this many leases are listed; a storm of thousands is summarized by its count. */
export const LISTED_LEASES = 40;

export function snapshot(
  t: Micros,
  cluster: Cluster,
  labels: LabelBook,
  deadlines: DeadlineBook,
  clients: readonly ClientView[],
): Snapshot {
  const members = cluster.names.map((name): MemberState => {
    const s = cluster.server(name);
    if (s === undefined)
      return { name, status: 'crashed', role: '-', term: cluster.persistedTerm(name), primary: false };
    return {
      name,
      status: cluster.process(name).paused ? 'paused' : 'running',
      role: s.raft.role,
      term: s.raft.term,
      primary: s.lessor.isPrimary(),
    };
  });
  const primaryName = actingPrimary(members);
  // Any running member's replicated view lists the leases; the primary's adds real deadlines.
  const source =
    cluster.server(primaryName ?? '') ?? cluster.names.map((n) => cluster.server(n)).find((s) => s !== undefined);
  const all = source?.lessor.leases() ?? [];
  const byGrant = [...all].sort((a, b) => a.grantSeq - b.grantSeq);
  const leases = byGrant.slice(0, LISTED_LEASES).map((l): LeaseState => {
    const finite = l.expiry !== Number.POSITIVE_INFINITY;
    return {
      id: l.id,
      hex: formatLeaseId(l.id),
      label: labels.labelOf(l.id),
      ttl: l.ttl,
      remainingUs: finite ? l.remaining(t) : undefined,
      expiryUs: finite ? l.expiry : undefined,
      beforeLeaderChangeUs: deadlines.get(l.id)?.beforeLeaderChangeUs,
      keys: l.keys(),
    };
  });
  const kvs = source?.store.rangeAll() ?? [];
  const keys = kvs.map(
    (kv): KeyState => ({
      key: kv.key,
      lease: kv.lease,
      label: kv.lease === 0n ? undefined : labels.labelOf(kv.lease),
      modRevision: kv.modRevision,
    }),
  );
  return {
    t,
    members,
    primary: primaryName,
    leases,
    leaseCount: all.length,
    keys,
    revision: source?.store.currentRevision ?? 0,
    clients,
  };
}

/**
 * The lessor whose deadlines count: a primary on the leader of the highest term (a paused old leader
 * still believes it is primary), else any primary left.
 */
export function actingPrimary(members: readonly MemberState[]): string | undefined {
  let best: MemberState | undefined;
  for (const m of members) if (m.primary && m.role === 'leader' && (best === undefined || m.term > best.term)) best = m;
  return best?.name ?? members.find((m) => m.primary)?.name;
}
