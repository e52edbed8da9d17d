/**
 * K9 TimeToLive sanity: a TimeToLive answer is -1 (not found) or at most the granted TTL plus the
 * election timeout (a promotion's extension) plus any pile-up spreading delay; never 9223372036, the
 * remaining time of a demoted lease (C5, etcd-io/etcd#17506). Negative answers other than -1 are allowed:
 * a fixed etcd reports them while an expired lease waits for its revoke (B2, B3).
 */
import { formatSeconds } from '../../clock/time.js';
import { expectAt } from './expects.js';
import { leaseLives } from './lease-lives.js';
import { earliest, type Monitor } from './monitor.js';
import { ceilSeconds } from './run-timings.js';
import type { RunView } from './run-view.js';
import type { ExpectCandidate, Violation } from './violation.js';

export const timeToLiveSanity: Monitor = {
  name: 'timetolive-sanity',
  check(view) {
    const lives = leaseLives(view);
    const spread = spreadAllowanceSeconds(view);
    const found: Violation[] = [];
    for (const i of view.ofKind('ctl-ok')) {
      const e = view.eventOf(i, 'ctl-ok');
      if (e.fields.op !== 'timetolive' || e.lease === undefined) continue;
      const ttl = e.fields.ttl ?? -1;
      const granted = lives.get(e.lease)?.ttl ?? e.fields.grantedTTL ?? 0;
      const bound = granted + ceilSeconds(view.timings.electionUs) + spread;
      if (ttl <= bound) continue;
      const lease = view.labelOf(e.lease);
      const expects: ExpectCandidate[] = [];
      const via = askedVia(view, lease, e.t);
      if (via !== undefined) expects.push(expectAt(e.t, { form: 'leader', member: via }));
      if (lease !== undefined) expects.push(expectAt(e.t, { form: 'lease-ttl', lease, ttlSeconds: { max: bound } }));
      found.push(
        view.violation(
          'timetolive-sanity',
          i,
          `TimeToLive of ${lease ?? e.lease} answered ${ttl} s at ` +
            `${formatSeconds(e.t)}; at most ${bound} s is possible`,
          expects,
        ),
      );
    }
    return earliest(found);
  },
};

/** Promote's spreading can push a deadline out by (leases / target) seconds. */
function spreadAllowanceSeconds(view: RunView): number {
  const target = Math.max(1, Math.trunc((3 * view.timings.revokeRate) / 4));
  let most = 0;
  for (const i of view.ofKind('lessor-promote')) {
    const e = view.eventOf(i, 'lessor-promote');
    if (e.fields.spread > 0) most = Math.max(most, Math.ceil(e.fields.leases / target) + 1);
  }
  return most;
}

/** The member the TimeToLive step that got this answer was sent to, when the step named one. */
function askedVia(view: RunView, lease: string | undefined, t: number): string | undefined {
  const step = view.scenario.steps.filter((s) => s.kind === 'timetolive' && s.lease === lease && s.atUs <= t).at(-1);
  return step?.kind === 'timetolive' ? step.via : undefined;
}
