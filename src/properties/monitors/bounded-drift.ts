/**
 * K17 bounded drift: a lease last acknowledged at r with deadline r + TTL is revoked by that deadline
 * plus, for each of the k promotions since r, one checkpoint interval + an election timeout (Promote's
 * extension) + 1 s (the checkpoint's rounding) + a tick and two commits (+ pile-up spreading), plus the
 * time no member was primary, a tick, a commit, the retry interval for each failed attempt and the
 * revoke rate's backlog. This is the bound checkpointing
 * is meant to give (docs/bugs.md I2, A3): without checkpoints every promotion resets the lease to its
 * full TTL and the drift is unbounded (A1, etcd-io/etcd#9888). Leases whose life saw faults other than
 * crashes, restarts and leader transfers, or lost a quorum to crashes, are skipped (unavailability is not
 * drift), and so are restarts when checkpointing is on but not persisted (A5's documented limit).
 */
import { MICROS_PER_SECOND, formatSeconds, type Micros } from '../../clock/time.js';
import type { Step } from '../../scenario/types.js';
import { leaseExists } from './expects.js';
import { leaseLives, type LeaseLife } from './lease-lives.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

const DRIFT_FAULTS: ReadonlySet<Step['kind']> = new Set(['transfer-leader', 'crash', 'restart']);

export const boundedDrift: Monitor = {
  name: 'bounded-drift',
  check(view) {
    const found: Violation[] = [];
    const promotes = view.ofKind('lessor-promote');
    const revokes = view.ofKind('lease-revoke').map((i) => view.at(i).t);
    for (const life of leaseLives(view).values()) {
      if (life.lastAckUs === -Infinity || view.explicitRevokes.has(life.id)) continue;
      const endOfLife = life.revokeIndex === undefined ? view.endUs : view.at(life.revokeIndex).t;
      if (endOfLife <= life.ackDeadlineUs || !driftOnly(view, life, endOfLife)) continue;
      const bound = boundFor(view, life, promotes, revokes, endOfLife);
      if (endOfLife <= bound) continue;
      const pushed = view
        .ofLease(life.id)
        .filter((i) => view.at(i).kind === 'lease-promoted' && view.at(i).t < bound)
        .at(-1);
      found.push(
        view.violation(
          'bounded-drift',
          pushed ?? life.revokeIndex ?? life.ackIndex,
          `lease ${view.labelOf(life.id) ?? life.id}, last acknowledged at ${formatSeconds(life.lastAckUs)} with ` +
            `TTL ${life.ttl} s, was ${life.revokeIndex === undefined ? 'still alive' : 'revoked'}` +
            ` at ${formatSeconds(endOfLife)}, past the bound ${formatSeconds(bound)}`,
          leaseExists(view, life.id, false, [bound + 1000]),
          bound,
        ),
      );
    }
    return earliest(found);
  },
};

/** Only leader changes (crashes, restarts, transfers) touched the lease's life. */
function driftOnly(view: RunView, life: LeaseLife, until: Micros): boolean {
  const t = view.timings;
  const other = view.faultWithin(
    life.lastAckUs,
    until,
    (f) => !DRIFT_FAULTS.has(f.kind) || (f.kind === 'restart' && t.checkpointing && !t.persistCheckpoints),
  );
  return other === undefined && !view.quorumLostWithin(life.lastAckUs, until);
}

function boundFor(
  view: RunView,
  life: LeaseLife,
  promotes: readonly number[],
  revokeTimes: readonly Micros[],
  until: Micros,
): Micros {
  const t = view.timings;
  const target = Math.max(1, Math.trunc((3 * t.revokeRate) / 4));
  let bound = life.ackDeadlineUs + t.loopUs + t.commitSlackUs + view.timeWithoutPrimary(life.lastAckUs, until);
  for (const p of promotes) {
    const e = view.eventOf(p, 'lessor-promote');
    if (e.t < life.lastAckUs || e.t > until) continue;
    const spread = e.fields.spread > 0 ? (Math.ceil(e.fields.leases / target) + 1) * MICROS_PER_SECOND : 0;
    bound += t.checkpointIntervalUs + t.electionUs + MICROS_PER_SECOND + t.loopUs + 2 * t.commitSlackUs + spread;
  }
  const offers = view.ofLease(life.id).filter((i) => view.at(i).kind === 'lease-expired').length;
  bound += Math.max(0, offers - 1) * t.retryUs;
  const near = revokeTimes.filter((x) => x >= bound - MICROS_PER_SECOND && x <= until).length;
  return bound + Math.ceil((near * MICROS_PER_SECOND) / t.revokeRate);
}
