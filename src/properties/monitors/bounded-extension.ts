/**
 * K10 bounded extension per promotion: when member m promotes lease L at p, L's new deadline is at most
 * p + ET + c (+ spreading), where c is the remaining TTL of the last checkpoint of L that m applied —
 * in any earlier life of m when checkpoints are persisted, else since m last started — or L's TTL when
 * there is none. A promotion that resets L further than that lost a checkpoint (A5, etcd-io/etcd#13508).
 */
import { MICROS_PER_SECOND, formatSeconds, truncDiv } from '../../clock/time.js';
import { expectAt } from './expects.js';
import { leaseLives } from './lease-lives.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';
import { expiryOf } from '../../trace/trace.js';

export const boundedExtension: Monitor = {
  name: 'bounded-extension',
  check(view) {
    const lives = leaseLives(view);
    const target = Math.max(1, Math.trunc((3 * view.timings.revokeRate) / 4));
    const found: Violation[] = [];
    for (const p of view.ofKind('lessor-promote')) {
      const promote = view.eventOf(p, 'lessor-promote');
      const spread =
        promote.fields.spread > 0 ? (Math.ceil(promote.fields.leases / target) + 1) * MICROS_PER_SECOND : 0;
      for (let i = p + 1; i < view.events.length; i++) {
        const e = view.at(i);
        if (e.t !== promote.t || e.member !== promote.member || e.kind !== 'lease-promoted') {
          if (e.t !== promote.t) break;
          continue;
        }
        const expiry = expiryOf(e);
        const ttl = lives.get(e.lease!)?.ttl;
        if (expiry === undefined || ttl === undefined) continue;
        const c = lastCheckpoint(view, e.member, e.lease!, i) || ttl;
        const bound = promote.t + view.timings.electionUs + c * MICROS_PER_SECOND + spread;
        if (expiry <= bound) continue;
        const lease = view.labelOf(e.lease!);
        found.push(
          view.violation(
            'bounded-extension',
            i,
            `${e.member} promoted lease ${lease ?? e.lease} to ${formatSeconds(expiry)}, past ` +
              `${formatSeconds(bound)} (election timeout + ${c} s, its last applied checkpoint or TTL)`,
            lease === undefined
              ? []
              : [
                  expectAt(promote.t, {
                    form: 'lease-ttl',
                    lease,
                    ttlSeconds: { max: truncDiv(bound - promote.t, MICROS_PER_SECOND) },
                  }),
                ],
          ),
        );
      }
    }
    return earliest(found);
  },
};

/** The remaining TTL of the last checkpoint of the lease m applied before index `before` (0: none). */
function lastCheckpoint(view: RunView, member: string, id: bigint, before: number): number {
  let value = 0;
  for (const i of view.ofLease(id)) {
    if (i >= before) break;
    const e = view.at(i);
    if (e.member !== member || e.kind !== 'lease-checkpoint') continue;
    value = e.fields.remaining;
  }
  if (!view.timings.persistCheckpoints) {
    const restart = view
      .ofKind('member-restart')
      .filter((i) => i < before && view.at(i).member === member)
      .at(-1);
    const since =
      restart === undefined
        ? []
        : view
            .ofLease(id)
            .filter(
              (i) =>
                i > restart && i < before && view.at(i).member === member && view.at(i).kind === 'lease-checkpoint',
            );
    if (restart !== undefined)
      value = since.length === 0 ? 0 : view.eventOf(since.at(-1)!, 'lease-checkpoint').fields.remaining;
  }
  return value;
}
