/**
 * K3 key/lease atomicity: a revoke deletes exactly the keys attached to the lease, all at one revision,
 * the same keys on every member; no key is put with a lease a member already revoked; and when the run
 * ends no running member stores a key that points at a lease it revoked.
 */
import { formatSeconds } from '../../clock/time.js';
import { formatLeaseId } from '../../trace/trace.js';
import { expectAt } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const keyLeaseAtomicity: Monitor = {
  name: 'key-lease-atomicity',
  check(view) {
    const found: (Violation | undefined)[] = [];
    for (const i of view.ofKind('lease-revoke')) found.push(checkRevoke(view, i));
    for (const i of view.ofKind('kv-put')) {
      const e = view.eventOf(i, 'kv-put');
      const id = e.fields.lease;
      const r = view.firstRevokeOn(e.member, id);
      if (r === undefined || r > i) continue;
      const hex = formatLeaseId(id);
      const key = e.fields.key;
      found.push(
        view.violation(
          'key-lease-atomicity',
          i,
          `${e.member} stored ${key} with lease ${hex} after applying its revoke`,
          [expectAt(e.t, { form: 'key-exists', key, exists: false, via: e.member })],
        ),
      );
    }
    found.push(leftovers(view));
    return earliest(found);
  },
};

/** The keys the revoke at index `i` lists are the ones deleted just before it, at one revision. */
function checkRevoke(view: RunView, i: number): Violation | undefined {
  const e = view.eventOf(i, 'lease-revoke');
  const keys = e.fields.keys;
  const deleted = new Map<string, number>();
  for (let j = i - 1; j >= 0; j--) {
    const d = view.at(j);
    if (d.t !== e.t) break;
    if (d.member !== e.member) continue;
    if (d.kind === 'kv-delete') deleted.set(d.fields.key, d.fields.rev);
    else if (d.kind !== 'lease-detach') break;
  }
  const missing = keys.filter((k) => !deleted.has(k));
  const revs = new Set(keys.map((k) => deleted.get(k)));
  const label = view.labelOf(e.lease!) ?? formatLeaseId(e.lease!);
  if (missing.length > 0) {
    return view.violation(
      'key-lease-atomicity',
      i,
      `${e.member} revoked lease ${label} without deleting ${missing.join(', ')}`,
      [...missing.map((key) => expectAt(e.t, { form: 'key-exists' as const, key, exists: false, via: e.member }))],
    );
  }
  if (revs.size > 1)
    return view.violation(
      'key-lease-atomicity',
      i,
      `${e.member} deleted the keys of lease ${label} at ${revs.size} revisions`,
      [],
    );
  const first = view.eventOf(view.firstRevoke(e.lease!)!, 'lease-revoke');
  const other = first.fields.keys;
  if (other.length !== keys.length || other.some((k, n) => k !== keys[n])) {
    return view.violation(
      'key-lease-atomicity',
      i,
      `${e.member} revoked lease ${label} with keys [${keys.join(', ')}` +
        `] but ${first.member} with [${other.join(', ')}]`,
      keys
        .filter((k) => !other.includes(k))
        .map((key) => expectAt(e.t, { form: 'key-exists' as const, key, exists: true, via: first.member })),
    );
  }
  return undefined;
}

/** At the end, no running member stores a key whose lease it revoked. */
function leftovers(view: RunView): Violation | undefined {
  const c = view.cluster;
  if (c === undefined) return undefined;
  for (const name of c.names) {
    const s = c.server(name);
    if (s === undefined || !view.revokedAnyOn(name)) continue;
    for (const kv of s.store.rangeAll()) {
      const r = view.firstRevokeOn(name, kv.lease);
      if (r === undefined) continue;
      return view.violation(
        'key-lease-atomicity',
        r,
        `${name} still stores ${kv.key} (lease ${formatLeaseId(kv.lease)}) at ` +
          `the end although it revoked the lease at ${formatSeconds(view.at(r).t)}`,
        [expectAt(view.endUs, { form: 'key-exists', key: kv.key, exists: false, via: name })],
        view.endUs,
      );
    }
  }
  return undefined;
}
