/**
 * K12 resource invariants, on each running member's lessor at the end of the run: a non-primary holds
 * no expiry-notifier and no checkpoint-heap entries (D1, etcd-io/etcd#11495: followers leaked one per
 * grant); a primary's notifier holds at most one entry per lease; the item map is exactly the union of
 * the leases' key sets (D2). The first violating event is where the stray entry came from: the grant
 * the member applied, or the demotion that left its queues behind.
 */
import type { LessorView } from '../../lessor/lessor.js';
import { expectAt } from './expects.js';
import type { Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const resourceInvariants: Monitor = {
  name: 'resource-invariants',
  check(view) {
    const c = view.cluster;
    if (c === undefined) return undefined;
    let first: Violation | undefined;
    for (const name of c.names) {
      const s = c.server(name);
      if (s === undefined) continue;
      const v = inspectOne(view, name, s.lessor.inspect());
      if (v !== undefined && (first === undefined || v.atUs < first.atUs)) first = v;
    }
    return first;
  },
};

function inspectOne(view: RunView, member: string, v: LessorView): Violation | undefined {
  const since =
    view
      .ofKind('member-restart')
      .filter((i) => view.at(i).member === member)
      .at(-1) ?? -1;
  const onMember = (pred: (i: number) => boolean): number | undefined => {
    for (let i = since + 1; i < view.events.length; i++) if (view.at(i).member === member && pred(i)) return i;
    return undefined;
  };
  const lastDemote = (): number | undefined =>
    view
      .ofKind('lessor-demote')
      .filter((i) => i > since && view.at(i).member === member)
      .at(-1);
  if (!v.primary && v.notifier.length > 0) {
    const ids = new Set(v.notifier.map((e) => e.id));
    const at =
      onMember(
        (i) => (view.at(i).kind === 'lease-grant' && ids.has(view.at(i).lease!)) || view.at(i).kind === 'lessor-demote',
      ) ?? Math.max(since, 0);
    const empty = (t: number) => expectAt(t, { form: 'expiry-queue', member, entries: { max: 0 } });
    return view.violation(
      'resource-invariants',
      at,
      `${member} is not primary but its expiry notifier holds ${v.notifier.length} entries at the end of the run`,
      [empty(view.at(at).t), empty(view.endUs)],
    );
  }
  if (!v.primary && v.checkpointHeap.length > 0) {
    return view.violation(
      'resource-invariants',
      lastDemote() ?? Math.max(since, 0),
      `${member} is not primary but its checkpoint heap holds ${v.checkpointHeap.length} entries`,
      [],
    );
  }
  const seen = new Set<bigint>();
  for (const e of v.notifier) {
    if (!seen.has(e.id)) {
      seen.add(e.id);
      continue;
    }
    const at = onMember((i) => view.at(i).lease === e.id) ?? Math.max(since, 0);
    return view.violation(
      'resource-invariants',
      at,
      `${member}'s expiry notifier holds lease ${view.labelOf(e.id) ?? e.id} twice`,
      [],
    );
  }
  for (const [key, id] of v.itemMap) {
    if (v.leaseMap.get(id)?.itemSet.has(key)) continue;
    const at = onMember((i) => view.at(i).lease === id) ?? Math.max(since, 0);
    return view.violation(
      'resource-invariants',
      at,
      `${member}'s item map sends ${key} to lease ${view.labelOf(id) ?? id}, which does not hold it`,
      [],
    );
  }
  for (const l of v.leaseMap.values()) {
    for (const key of l.itemSet) {
      if (v.itemMap.get(key) === l.id) continue;
      const at = onMember((i) => view.at(i).lease === l.id) ?? Math.max(since, 0);
      return view.violation(
        'resource-invariants',
        at,
        `${member}'s lease ${view.labelOf(l.id) ?? l.id} holds ${key} but the item map does not point it there`,
        [],
      );
    }
  }
  return undefined;
}
