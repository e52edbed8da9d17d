/**
 * K8 member agreement: when the run ends, running members that have applied the same index hold the
 * same leases with the same TTLs, attached keys and checkpointed remaining TTL (the latter only where a
 * fixed etcd keeps it: with checkpoints persisted, or on members that never restarted). Catches
 * divergent applies (C8) and lost checkpoints (A5).
 */
import type { Lease } from '../../lessor/lease.js';
import type { EtcdServer } from '../../cluster/server/etcd-server.js';
import { MICROS_PER_MS, MICROS_PER_SECOND } from '../../clock/time.js';
import { isKindIn, LEASE_KINDS } from '../../trace/events.js';
import { expectAt } from './expects.js';
import type { Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { ExpectCandidate, Violation } from './violation.js';

export const memberAgreement: Monitor = {
  name: 'member-agreement',
  check(view) {
    const c = view.cluster;
    if (c === undefined) return undefined;
    const restarted = new Set(view.ofKind('member-restart').map((i) => view.at(i).member));
    const groups = new Map<number, EtcdServer[]>();
    for (const name of c.names) {
      const s = c.server(name);
      if (s === undefined) continue;
      const g = groups.get(s.appliedIndex);
      if (g === undefined) groups.set(s.appliedIndex, [s]);
      else g.push(s);
    }
    for (const g of groups.values()) {
      for (const b of g.slice(1)) {
        const v = compare(
          view,
          g[0]!,
          b,
          view.timings.persistCheckpoints || (!restarted.has(g[0]!.name) && !restarted.has(b.name)),
        );
        if (v !== undefined) return v;
      }
    }
    return undefined;
  },
};

function compare(view: RunView, a: EtcdServer, b: EtcdServer, remainingToo: boolean): Violation | undefined {
  const la = a.lessor.inspect().leaseMap;
  const lb = b.lessor.inspect().leaseMap;
  const count: ExpectCandidate[] = [expectAt(view.endUs, { form: 'leases-count', count: la.size, via: b.name })];
  for (const l of la.values()) {
    const o = lb.get(l.id);
    if (o === undefined)
      return diverged(view, a, b, l.id, `${a.name} holds lease ${name(view, l)} and ${b.name} does not`, count);
    const why = differs(l, o, remainingToo);
    if (why !== undefined)
      return diverged(
        view,
        a,
        b,
        l.id,
        `lease ${name(view, l)}: ${why} on ${a.name} vs ${b.name}`,
        remainingProbe(view, a, b, l, o),
      );
  }
  for (const l of lb.values()) {
    if (!la.has(l.id))
      return diverged(view, b, a, l.id, `${b.name} holds lease ${name(view, l)} and ${a.name} does not`, count);
  }
  return undefined;
}

function differs(x: Lease, y: Lease, remainingToo: boolean): string | undefined {
  if (x.ttl !== y.ttl) return `TTL ${x.ttl} vs ${y.ttl}`;
  const kx = x.keys().join(',');
  const ky = y.keys().join(',');
  if (kx !== ky) return `keys [${kx}] vs [${ky}]`;
  if (remainingToo && x.remainingTTL !== y.remainingTTL)
    return `checkpointed remaining TTL ${x.remainingTTL} vs ${y.remainingTTL}`;
  return undefined;
}

/**
 * A lost checkpoint shows once the member that lost it promotes the lease: leadership moves to it right
 * after the run, and the TTL it gives the lease 200 ms later exceeds what the others' checkpoint allows
 * (it is promoted within 50 ms of the transfer).
 */
function remainingProbe(view: RunView, a: EtcdServer, b: EtcdServer, la: Lease, lb: Lease): ExpectCandidate[] {
  const lease = view.labelOf(la.id);
  if (lease === undefined || la.remainingTTL === lb.remainingTTL || la.ttl !== lb.ttl) return [];
  const [lost, kept] = la.remainingTTL < lb.remainingTTL ? [a, lb] : [b, la];
  if (kept.remainingTTL <= 0) return [];
  const probeAt = view.endUs + MICROS_PER_MS;
  const checkAt = probeAt + 200 * MICROS_PER_MS;
  const max = Math.floor(
    (probeAt + 50 * MICROS_PER_MS + view.timings.electionUs + kept.remainingTTL * MICROS_PER_SECOND - checkAt) /
      MICROS_PER_SECOND,
  );
  return [
    {
      atUs: checkAt,
      assertion: { form: 'lease-ttl', lease, ttlSeconds: { max } },
      probe: [{ kind: 'transfer-leader', atUs: probeAt, to: lost.name }],
    },
  ];
}

const name = (view: RunView, l: Lease): string => view.labelOf(l.id) ?? String(l.id);

/** Blames the latest restart of either member, else the last event about the lease on either. */
function diverged(
  view: RunView,
  a: EtcdServer,
  b: EtcdServer,
  id: bigint,
  message: string,
  expects: readonly ExpectCandidate[],
): Violation {
  const members = new Set([a.name, b.name]);
  const restart = view
    .ofKind('member-restart')
    .filter((i) => members.has(view.at(i).member))
    .at(-1);
  const about = view
    .ofLease(id)
    .filter((i) => members.has(view.at(i).member) && isKindIn(view.at(i), LEASE_KINDS))
    .at(-1);
  const at = restart ?? about ?? 0;
  return view.violation('member-agreement', at, `at applied index ${a.appliedIndex}: ${message}`, expects);
}
