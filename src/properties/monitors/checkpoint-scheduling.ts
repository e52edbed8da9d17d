/**
 * K11 checkpoint scheduling: with checkpointing on, a primary that grants, promotes or applies a
 * checkpoint of a lease with more than one checkpoint interval left must apply a checkpoint of it within
 * the interval plus a run-loop tick and a commit. Etcd skips a due checkpoint, and schedules no other,
 * when ceil(remaining) ≥ TTL at that moment, so there is no obligation when the lease's deadline is
 * more than TTL − 1 s past the due time (a promotion's extension can do that when the interval is not
 * longer than the election timeout), and it lapses when the lease is renewed within a second of the due
 * time. It also lapses when the lease expires or is revoked, when the member stops being primary or
 * refuses to checkpoint, or when any fault hits the window. The run loop waits for its checkpoint
 * proposal (up to the request timeout when a leader change loses it), so a deadline moves past such a
 * wait. A primary that never checkpoints after a promotion is A4 (etcd-io/etcd#13491).
 */
import { MICROS_PER_MS, MICROS_PER_SECOND, formatSeconds, truncDiv, type Micros } from '../../clock/time.js';
import { EXPIRY_KINDS, isKindIn, type TraceKind, expiryOf } from '../../trace/trace.js';
import type { DraftStep } from '../draft/format-step.js';
import { leaseLives } from './lease-lives.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { ExpectCandidate, Violation } from './violation.js';

const MEMBER_ENDS: ReadonlySet<TraceKind> = new Set([
  'lessor-demote',
  'member-crash',
  'member-restart',
  'server-checkpoint-refused',
]);

interface Due {
  /** When the checkpoint is scheduled. */
  readonly dueUs: Micros;
  /** When it must have applied. */
  readonly deadlineUs: Micros;
  readonly source: number;
}

export const checkpointScheduling: Monitor = {
  name: 'checkpoint-scheduling',
  check(view) {
    const t = view.timings;
    if (!t.checkpointing) return undefined;
    const lives = leaseLives(view);
    const stuck = lostProposals(view);
    const intervalS = truncDiv(t.checkpointIntervalUs, MICROS_PER_SECOND);
    const owed = new Map<string, Map<bigint, Due>>();
    const found: Violation[] = [];
    // A lower bound of every pending deadline, so most events skip the scan.
    let soonest = Infinity;
    const lapse = (now: Micros): void => {
      if (now <= soonest) return;
      soonest = Infinity;
      for (const dues of owed.values()) {
        for (const [id, d] of dues) {
          if (d.deadlineUs >= now) {
            soonest = Math.min(soonest, d.deadlineUs);
            continue;
          }
          const member = view.at(d.source).member;
          const wait = stuck.find((w) => w.member === member && w.fromUs <= d.deadlineUs && w.untilUs > d.deadlineUs);
          if (wait !== undefined) {
            dues.set(id, { ...d, deadlineUs: wait.untilUs + t.loopUs + t.commitSlackUs });
            soonest = Math.min(soonest, wait.untilUs);
            continue;
          }
          dues.delete(id);
          if (view.faultWithin(view.at(d.source).t, d.deadlineUs) === undefined) found.push(missed(view, id, d));
        }
      }
    };
    // Each member's latest deadline for each lease, from its grant, renew and promote events.
    const deadlines = new Map<string, Map<bigint, Micros>>();
    const oblige = (member: string, id: bigint, remainingS: number, i: number, at: Micros): void => {
      const dues = owed.get(member) ?? new Map<bigint, Due>();
      owed.set(member, dues);
      const dueUs = at + t.checkpointIntervalUs;
      const ttl = lives.get(id)?.ttl ?? 0;
      const expiry = deadlines.get(member)?.get(id) ?? Infinity;
      if (remainingS <= intervalS || expiry - dueUs > (ttl - 1) * MICROS_PER_SECOND) return void dues.delete(id);
      const deadlineUs = dueUs + t.loopUs + t.commitSlackUs;
      dues.set(id, { dueUs, deadlineUs, source: i });
      soonest = Math.min(soonest, deadlineUs);
    };
    const events = view.events;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      lapse(e.t);
      if (e.lease === undefined) {
        // A demote, crash, restart or refused checkpoint ends a member's obligations; none names a lease.
        if (MEMBER_ENDS.has(e.kind)) owed.get(e.member)?.clear();
        continue;
      }
      const x = isKindIn(e, EXPIRY_KINDS) ? expiryOf(e) : undefined;
      if (x !== undefined) {
        const ofMember = deadlines.get(e.member);
        if (ofMember === undefined) deadlines.set(e.member, new Map([[e.lease, x]]));
        else ofMember.set(e.lease, x);
      }
      const dues = owed.get(e.member);
      const ttl = lives.get(e.lease)?.ttl ?? 0;
      switch (e.kind) {
        case 'lease-grant':
          if (x !== undefined) oblige(e.member, e.lease!, e.fields.ttl, i, e.t);
          continue;
        case 'lease-promoted':
          oblige(e.member, e.lease!, e.fields.remaining, i, e.t);
          continue;
        case 'lease-checkpoint':
          if (view.wasPrimary(e.member, e.t)) oblige(e.member, e.lease!, e.fields.remaining || ttl, i, e.t);
          else dues?.delete(e.lease!);
          continue;
        case 'lease-renew': {
          // A renewal within a second of the due time makes etcd skip the checkpoint (and not reschedule it).
          const d = dues?.get(e.lease!);
          if (d !== undefined && e.t > d.dueUs - MICROS_PER_SECOND - t.commitSlackUs) dues!.delete(e.lease!);
          continue;
        }
        case 'lease-expired':
        case 'lease-revoke':
          dues?.delete(e.lease!);
          continue;
      }
    }
    lapse(view.endUs);
    return earliest(found);
  },
};

/** Checkpoint proposals that never applied on their proposer: its run loop waits until their timeout. */
function lostProposals(view: RunView): { member: string; fromUs: Micros; untilUs: Micros }[] {
  const t = view.timings;
  return view
    .ofKind('lessor-checkpoint-propose')
    .map((i) => view.at(i))
    .filter(
      (p) =>
        !view
          .ofKind('lease-checkpoint')
          .some((k) => view.at(k).member === p.member && view.at(k).t >= p.t && view.at(k).t <= p.t + t.commitSlackUs),
    )
    .map((p) => ({ member: p.member, fromUs: p.t, untilUs: p.t + t.reqTimeoutUs }));
}

function missed(view: RunView, id: bigint, d: Due): Violation {
  const src = view.at(d.source);
  return view.violation(
    'checkpoint-scheduling',
    d.source,
    `${src.member} was primary with lease ${view.labelOf(id) ?? id} due for a checkpoint at ` +
      `${formatSeconds(d.dueUs)} (after ${src.kind} at ${formatSeconds(src.t)}` +
      `) and had applied none by ${formatSeconds(d.deadlineUs)}`,
    probeExpects(view, id, src.member, d),
    d.deadlineUs,
  );
}

/**
 * No expect form sees a checkpoint schedule, so the counterexample moves leadership away right after
 * the deadline and reads the TTL the new leader gave the lease 200 ms later. Had the checkpoint been
 * taken (at the due time or after), the new leader (promoted within 50 ms of the transfer) extends the
 * lease from at most ceil(deadline − due) seconds; a stale checkpoint or none shows more.
 */
function probeExpects(view: RunView, id: bigint, from: string, d: Due): ExpectCandidate[] {
  const lease = view.labelOf(id);
  const to = view.cluster?.names.find((n) => n !== from);
  const deadline = lastDeadline(view, id, from, d.source);
  if (lease === undefined || to === undefined || deadline === undefined) return [];
  const probeAt = d.deadlineUs + MICROS_PER_MS;
  const checkAt = probeAt + 200 * MICROS_PER_MS;
  const promotedBy = probeAt + 50 * MICROS_PER_MS;
  const remaining = Math.ceil((deadline - d.dueUs) / MICROS_PER_SECOND) * MICROS_PER_SECOND;
  const max = Math.floor((promotedBy + view.timings.electionUs + remaining - checkAt) / MICROS_PER_SECOND);
  const probe: DraftStep[] = [{ kind: 'transfer-leader', atUs: probeAt, to }];
  return [{ atUs: checkAt, assertion: { form: 'lease-ttl', lease, ttlSeconds: { max } }, probe }];
}

/** The lease's deadline on `member` as of its source event. */
function lastDeadline(view: RunView, id: bigint, member: string, upTo: number): Micros | undefined {
  let out: Micros | undefined;
  for (const i of view.ofLease(id)) {
    if (i > upTo) break;
    const e = view.at(i);
    if (e.member === member && isKindIn(e, EXPIRY_KINDS)) out = expiryOf(e) ?? out;
  }
  return out;
}
