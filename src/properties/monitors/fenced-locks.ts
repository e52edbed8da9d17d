/**
 * K15 fenced locks: Lock() returns only while the caller's lock key still exists (H2,
 * etcd-io/etcd#11456: 3.4 returned after waiting without re-reading its key, whose session lease had
 * expired meanwhile), and a fenced resource never accepts a token below one it accepted (H1). The key is
 * taken as deleted when its delete applied earlier than a commit's slack before Lock returned, so a
 * lease that expires while the final read is in flight does not count.
 */
import { formatSeconds } from '../../clock/time.js';
import { expectAt } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const fencedLocks: Monitor = {
  name: 'fenced-locks',
  check(view) {
    const found: Violation[] = [];
    for (const i of view.ofKind('client-lock-acquired')) {
      const v = acquiredWithoutKey(view, i);
      if (v !== undefined) found.push(v);
    }
    const highest = new Map<string, number>();
    for (const i of view.ofKind('client-fenced-write')) {
      const e = view.eventOf(i, 'client-fenced-write');
      if (!e.fields.accepted) continue;
      const { resource, token } = e.fields;
      const max = highest.get(resource) ?? 0;
      if (token < max)
        found.push(
          view.violation(
            'fenced-locks',
            i,
            `resource ${resource} accepted ${e.member}'s token ${token} after accepting ${max}`,
            [],
          ),
        );
      highest.set(resource, Math.max(max, token));
    }
    return earliest(found);
  },
};

function acquiredWithoutKey(view: RunView, i: number): Violation | undefined {
  const e = view.eventOf(i, 'client-lock-acquired');
  const { name, rev } = e.fields;
  const put = view.ofKind('kv-put').find((k) => {
    const p = view.eventOf(k, 'kv-put');
    return p.fields.rev === rev && p.fields.key.startsWith(`${name}/`);
  });
  if (put === undefined || put > i) return undefined;
  const key = view.eventOf(put, 'kv-put').fields.key;
  const del = view.ofKind('kv-delete').find((k) => k > put && view.eventOf(k, 'kv-delete').fields.key === key);
  if (del === undefined || view.at(del).t >= e.t - view.timings.commitSlackUs) return undefined;
  return view.violation(
    'fenced-locks',
    i,
    `${e.member}'s Lock(${name}) returned at ${formatSeconds(e.t)} although ` +
      `its key ${key} was deleted at ${formatSeconds(view.at(del).t)}`,
    [
      expectAt(e.t, { form: 'key-exists', key, exists: true }),
      expectAt(e.t, { form: 'lock-held', lock: name, client: e.member, held: false }),
    ],
  );
}
