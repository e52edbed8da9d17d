/**
 * The lessons, grouped by topic: one per part of the seed documents (the runbook's steps, its
 * verification and failure cases; the article's forwarding, Promote/Demote and checkpoints; the
 * overview's knobs). Each step says what happens and why; at key moments a step asks for a prediction,
 * and the verdict is read off the run (RunFacts), never written in, so a lesson stays true when its
 * scenario changes. Instants come from the run too, wherever the scenario does not fix them.
 */
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import { expiryOf, type TraceEventMap } from '../trace/trace.js';
import { eventLease, eventMember, eventTime } from './trace-adapter.js';
import { at, type RunFacts, span } from './run-facts.js';

type Val<T> = T | ((f: RunFacts) => T);

export interface Prediction {
  readonly question: string;
  readonly choices: readonly string[];
  /** Where the answer can be seen: the page plays the run from the question to here, then judges. */
  readonly revealAt: Val<Micros | undefined>;
  /** The choice the run bears out, and why, in words built from the run. */
  readonly outcome: (f: RunFacts) => { readonly choice: number; readonly because: string };
}

export interface CourseStep {
  readonly at: Val<Micros | undefined>;
  readonly say: Val<string>;
  readonly predict?: Prediction;
}

export interface CourseLesson {
  readonly id: string;
  readonly topic: string;
  readonly title: string;
  /** The library scenario it plays, by its path from the package root. */
  readonly file: string;
  readonly steps: readonly CourseStep[];
}

export interface Verdict {
  readonly held: boolean;
  readonly answer: string;
  readonly text: string;
}

const s = (x: number): Micros => Math.round(x * MICROS_PER_SECOND);
const val = <T>(v: Val<T>, f: RunFacts): T => (typeof v === 'function' ? (v as (f: RunFacts) => T)(f) : v);

/** Where a step stands: its own instant, or (when the run lacks what it names) where the last one stood. */
export function stepTime(step: CourseStep, f: RunFacts, previous: Micros): Micros {
  return Math.max(0, Math.min(f.result.scenario.durationUs, val(step.at, f) ?? previous));
}

export const stepText = (step: CourseStep, f: RunFacts): string => val(step.say, f);

export function revealTime(p: Prediction, f: RunFacts, asked: Micros): Micros {
  return Math.max(asked, Math.min(f.result.scenario.durationUs, val(p.revealAt, f) ?? f.result.scenario.durationUs));
}

export function verdictOf(p: Prediction, f: RunFacts, picked: number): Verdict {
  const o = p.outcome(f);
  const answer = p.choices[o.choice] ?? '?';
  const held = o.choice === picked;
  return {
    held,
    answer,
    text: held
      ? `Your prediction held: “${answer}”. ${o.because}`
      : `Your prediction did not hold: the run says “${answer}”. ${o.because}`,
  };
}

const RUNBOOK = 'scenarios/seed-runbook.yaml';
const LOCK = '/locks/payment-42';
const T_RUNBOOK = 'Holding a lock with a lease (the runbook)';
const T_ARTICLE = 'Inside etcd: forwarding, Promote/Demote, checkpoints (the article)';
const T_KNOBS = 'The lessor’s knobs (the overview)';

/** A fenced write the resource refused. */
const rejected = (e: TraceEventMap['client-fenced-write']): boolean => !e.fields.accepted;

/** How late a key went after its lease's original deadline, as a choice among on time / a few s / ~30 s. */
function lateness(f: RunFacts, key: string, lease: string): { readonly choice: number; readonly because: string } {
  // The grant on the primary: the other members hold the lease at forever.
  const grant = f.first('lease-grant', { lease, where: (e) => expiryOf(e) !== undefined });
  const deadline = grant === undefined ? undefined : expiryOf(grant);
  const deleted = f.keyDeletedAt(key);
  if (deadline === undefined || deleted === undefined)
    return { choice: 2, because: `The key was not deleted within the run (deadline ${at(deadline)}).` };
  const late = deleted - deadline;
  const promoted = f.first('lease-promoted', { lease });
  const how =
    promoted === undefined
      ? ''
      : ` The new primary ${eventMember(promoted)} promoted at ${at(eventTime(promoted))} with ` +
        `${promoted.fields.remaining} s remaining, so the lease got expiry ${at(expiryOf(promoted))}.`;
  return {
    choice: late <= MICROS_PER_SECOND ? 0 : late <= 10 * MICROS_PER_SECOND ? 1 : 2,
    because:
      `The lease's original deadline was ${at(deadline)}; the key was deleted at ${at(deleted)}, ${span(late)} ` +
      `late.${how}`,
  };
}

export const COURSE: readonly CourseLesson[] = [
  {
    id: 'runbook-grant',
    topic: T_RUNBOOK,
    title: 'Steps 1–2: grant a lease, attach the lock key',
    file: RUNBOOK,
    steps: [
      {
        at: (f) => f.midFlight('request', 0, { carries: 'LeaseGrant' }),
        say:
          'A lease is a countdown etcd keeps for you. The client asks the leader n1 for a lease of 9 s ' +
          '(the grey request on the left); nothing is granted until the cluster agrees on it.',
      },
      {
        at: (f) => f.midFlight('MsgApp', 0, { carries: 'LeaseGrant' }),
        say:
          'n1 proposes the grant through raft: the purple LeaseGrant append travels to n2 and n3. Once a ' +
          'majority has it, every member applies it, so every member knows the lease.',
        predict: {
          question: 'The client asked for 9 s. From when do those 9 s count?',
          choices: ['From when the client sent the request', 'From when the leader applied the grant, a little later'],
          revealAt: (f) => f.when('lease-grant', { lease: 'L1', member: 'n1' }),
          outcome: (f) => {
            const asked = f.message('request', 0, { carries: 'LeaseGrant' })?.sentUs;
            const applied = f.when('lease-grant', { lease: 'L1', member: 'n1' });
            const expiry = f.expiryAt('L1', applied ?? 0);
            return {
              choice: applied !== undefined && asked !== undefined && applied > asked ? 1 : 0,
              because:
                `The request left at ${at(asked)}; n1 applied the LeaseGrant entry once a majority had it, at ` +
                `${at(applied)}, and only then set the expiry: ${at(expiry)}.`,
            };
          },
        },
      },
      {
        at: (f) => f.midFlight('MsgApp', 0, { carries: 'Put' }),
        say:
          `The lock key ${LOCK} is written with the lease attached (a Put, also through raft). From now on the ` +
          `key lives exactly as long as the lease: when the lease goes, etcd deletes the key with it.`,
      },
      {
        at: s(1),
        say:
          'The ring on the right drains as the lease runs down. Only the leader’s lessor (the primary, ' +
          'with the gold run-loop ring) counts time; n2 and n3 hold the same lease with no clock running.',
      },
    ],
  },
  {
    id: 'runbook-keepalive',
    topic: T_RUNBOOK,
    title: 'Step 3: keep the lease alive at TTL/3',
    file: RUNBOOK,
    steps: [
      {
        at: (f) => f.midFlight('keepalive', 0, { from: 'c1' }),
        say:
          'c1 opens a LeaseKeepAlive stream to n1 and sends a renewal (the green dot). n1’s lessor sets ' +
          'the lease back to its full 9 s and answers with the TTL (light green).',
      },
      {
        at: (f) => f.midFlight('keepalive', s(1), { from: 'c1' }),
        say:
          'About TTL/3 = 3 s after an answer, clientv3 sends the next renewal, so the lease gets three ' +
          'chances before it could run out. Watch the ring refill.',
      },
      {
        at: s(3.5),
        say: 'Renewals keep going on their own; the client’s code does nothing for them.',
        predict: {
          question: 'Will the lease still be alive at 10 s, more than its 9 s TTL after it was granted?',
          choices: ['Yes: each renewal starts the 9 s again', 'No: a lease lives 9 s whatever happens'],
          revealAt: s(10),
          outcome: (f) => {
            const gone = f.when('lease-revoke', { lease: 'L1', before: s(10) });
            const renewed = f.all('lease-renew', { lease: 'L1', before: s(10) }).map((e) => at(eventTime(e)));
            return gone === undefined
              ? {
                  choice: 0,
                  because:
                    `Renewals reached n1’s lessor at ${renewed.join(', ')}; after the last the lease expires at ` +
                    `${at(f.expiryAt('L1', s(10)))}.`,
                }
              : { choice: 1, because: `The lease was revoked at ${at(gone)}.` };
          },
        },
      },
    ],
  },
  {
    id: 'runbook-fence',
    topic: T_RUNBOOK,
    title: 'Step 4: the Put revision is a fencing token',
    file: RUNBOOK,
    steps: [
      {
        at: (f) => f.when('kv-put', { key: LOCK }),
        say: (f) =>
          `Every write gets a revision, one counter for the whole cluster that only grows. c1 took the lock at ` +
          `revision ${f.first('kv-put', { key: LOCK })!.fields.rev}: that number is its fencing token.`,
      },
      {
        at: s(22.9),
        say:
          'c1 froze at 10 s and lost the lock (the Step 5 lesson shows how). A second owner now takes the key ' +
          'with a new lease.',
        predict: {
          question: 'Will the second owner’s revision be larger than the first owner’s?',
          choices: ['Larger', 'The same', 'Smaller'],
          revealAt: (f) => {
            const t = f.when('kv-put', { key: LOCK, from: s(1) });
            return t === undefined ? undefined : t + 1000;
          },
          outcome: (f) => {
            const puts = f.all('kv-put', { key: LOCK, member: 'n1' }).map((e) => e.fields.rev);
            const [a, b] = [puts[0] ?? 0, puts[1] ?? 0];
            return {
              choice: b > a ? 0 : b === a ? 1 : 2,
              because:
                `The first owner wrote at revision ${a}, the second at ${b}: the revoke and delete in between ` +
                `took revisions of their own.`,
            };
          },
        },
      },
      {
        at: (f) => (f.when('kv-put', { key: LOCK, from: s(1) }) ?? 0) + 1000,
        say:
          'A protected resource keeps the highest token it has seen and refuses smaller ones. Then the ' +
          'frozen first owner, waking with its old token, is turned away.',
      },
    ],
  },
  {
    id: 'runbook-step5',
    topic: T_RUNBOOK,
    title: 'Step 5: the client freezes and never notices in time',
    file: RUNBOOK,
    steps: [
      {
        at: s(9.9),
        say:
          'At 10 s c1 freezes for 12 s (kill -STOP, or a long garbage-collection pause). A frozen process ' +
          'runs no code: no renewal leaves it, and nothing inside it can notice anything.',
      },
      {
        at: s(10),
        say: 'c1 is frozen now. Its last renewal was answered a moment ago.',
        predict: {
          question: `The lease lasts 9 s and c1 sleeps for 12 s. Will ${LOCK} still exist when c1 wakes at 22 s?`,
          choices: ['Yes, it survives until c1 wakes', 'No, etcd deletes it while c1 sleeps'],
          revealAt: s(22),
          outcome: (f) => {
            const deleted = f.keyDeletedAt(LOCK, s(10));
            return deleted !== undefined && deleted < s(22)
              ? {
                  choice: 1,
                  because:
                    `Nothing reached n1 after the renewal that set expiry ${at(f.expiryAt('L1', s(10)))}; the ` +
                    `run loop found the lease expired at ${at(f.when('lease-expired', { lease: 'L1' }))} and the ` +
                    `key was deleted at ${at(deleted)}, while c1 slept.`,
                }
              : { choice: 0, because: `The key was still there at 22 s (deleted: ${at(deleted)}).` };
          },
        },
      },
      {
        at: (f) => f.midFlight('MsgApp', s(10), { carries: 'LeaseRevoke' }),
        say: (f) =>
          `At ${at(f.when('lease-expired', { lease: 'L1' }))} the primary’s 500 ms run-loop pass found the lease ` +
          `expired and proposed a LeaseRevoke through raft (purple); every member deleted the key in the same ` +
          `revision at ${at(f.keyDeletedAt(LOCK))}.`,
      },
      {
        at: (f) => f.when('client-keepalive-closed', { member: 'c1' }),
        say: (f) =>
          `c1 wakes at 22 s; its keep-alive channel closes at ` +
          `${at(f.when('client-keepalive-closed', { member: 'c1' }))}. Step 5’s check runs only now, ` +
          `${span((f.when('client-keepalive-closed', { member: 'c1' }) ?? 0) - (f.keyDeletedAt(LOCK) ?? 0))} ` +
          `after the key was gone. Step 5 could not notice the loss in time: the code that would notice was ` +
          `frozen with everything else, and even now its confirmation misses it (the next lesson shows why). ` +
          `Only a fence at the resource (Step 4) stops a stale owner.`,
      },
    ],
  },
  {
    id: 'runbook-step5-confirm',
    topic: T_RUNBOOK,
    title: 'Step 5’s confirmation: why onLost is never called',
    file: 'scenarios/holders/fault1-step5-confirm.runbook.yaml',
    steps: [
      {
        at: s(4.9),
        say:
          'Holder a runs the runbook’s Step 5 code: when its keep-alive channel closes it confirms with ' +
          'TimeToLive, and calls onLost only if that call returns an error. Holder b waits for the same lock. ' +
          'At 5 s a’s client freezes for 12 s, longer than the 9 s TTL.',
      },
      {
        at: (f) => f.midFlight('MsgApp', s(5), { carries: 'LeaseRevoke' }),
        say: (f) => {
          const b = f.first('holder-acquired', { member: 'b', from: s(5) });
          return (
            `a’s lease ran out while it slept: the revoke deletes the lock key (purple), and b takes the lock at ` +
            `${at(b === undefined ? undefined : eventTime(b))} with token ` +
            `${b === undefined ? '?' : b.fields.token}.`
          );
        },
      },
      {
        at: s(16.99),
        say: 'a wakes at 17 s. Its keep-alive channel closes, and Step 5 asks TimeToLive to confirm.',
        predict: {
          question: 'Will Step 5 call onLost?',
          choices: ['Yes: the lease is gone, so TimeToLive fails', 'No: Step 5 concludes the lock is still held'],
          revealAt: (f) => {
            const t = f.when('holder-noticed', { member: 'a', from: s(5) });
            return t === undefined ? undefined : t + 1000;
          },
          outcome: (f) => {
            const n = f.first('holder-noticed', { member: 'a', from: s(5) });
            if (n === undefined) return { choice: 0, because: 'a never looked at its lease in this run.' };
            const held = n.fields.verdict === 'still-held';
            const ttl = n.fields.timetolive === undefined ? '' : ` with TTL ${n.fields.timetolive}`;
            return {
              choice: held ? 1 : 0,
              because: held
                ? `etcd answered TimeToLive${ttl} and no error: a lease ` +
                  `it no longer has is reported as -1, not as an error. Step 5 calls onLost only on an error, so ` +
                  `a goes on believing it holds the lock.`
                : `TimeToLive answered with an error, and a called onLost at ${at(eventTime(n))}.`,
            };
          },
        },
      },
      {
        at: (f) =>
          f.when('client-fenced-write', {
            member: 'a',
            from: f.when('holder-noticed', { member: 'a', from: s(5) }) ?? s(17),
            where: rejected,
          }),
        say: (f) =>
          `a keeps writing with its old token; the resource has seen b’s larger token and rejects all ` +
          `${f.all('client-fenced-write', { member: 'a', where: rejected }).length} ` +
          `of a’s later writes. So Step 5 never notices the loss: its check waits for an error etcd never sends, ` +
          `and a frozen client could not act in time anyway. The fence at the resource (Step 4) is what keeps it ` +
          `safe.`,
      },
    ],
  },
  {
    id: 'runbook-verify',
    topic: T_RUNBOOK,
    title: 'Verification: watch a lease expire',
    file: 'scenarios/expiry-without-keepalive.yaml',
    steps: [
      {
        at: s(1),
        say: 'The runbook’s first manual check: grant a 9 s lease, attach the key, and renew nothing.',
      },
      {
        at: s(8.9),
        say: (f) => `The lease ran from when n1 applied the grant; its deadline is ${at(f.expiryAt('L1', s(1)))}.`,
        predict: {
          question: 'When will the key disappear?',
          choices: ['Exactly at the deadline', 'A little later, within half a second', 'Only when someone revokes it'],
          revealAt: s(10),
          outcome: (f) => {
            const deadline = f.expiryAt('L1', s(1));
            const deleted = f.keyDeletedAt(LOCK);
            if (deleted === undefined || deadline === undefined)
              return { choice: 2, because: 'Nothing deleted the key within the run.' };
            const late = deleted - deadline;
            return {
              choice: late <= 1000 ? 0 : late <= 600_000 ? 1 : 2,
              because:
                `etcd keeps no timer per lease. The primary’s run loop passes every 500 ms; the pass at ` +
                `${at(f.when('lease-expired', { lease: 'L1' }))} found the lease expired, and the revoke ` +
                `committed at ${at(deleted)}: ${span(late)} after the deadline.`,
            };
          },
        },
      },
    ],
  },
  {
    id: 'runbook-frozen-leader',
    topic: T_RUNBOOK,
    title: 'Failure case: the leader freezes behind a follower',
    file: 'scenarios/holders/fault4-frozen-leader.runbook.yaml',
    steps: [
      {
        at: (f) => f.midFlight('renew-forward', s(5)),
        say:
          'Holder a keeps its lease alive through the follower n2, which forwards each renewal to the ' +
          'leader n1 (pink) and passes the answer back.',
      },
      {
        at: s(6.9),
        say: 'n1 freezes now, for 20 s. n3 will take over as leader within two seconds.',
        predict: {
          question: 'The leader freezes while a keeps its lease alive through n2. Will a’s lease survive?',
          choices: ['Yes: n2 sends the renewals to the new leader', 'No: the lease is lost'],
          revealAt: s(12.5),
          outcome: (f) => {
            const first = f.first('holder-acquired', { member: 'a' });
            const id = first === undefined ? undefined : eventLease(first);
            const revoked = id === undefined ? undefined : f.when('lease-revoke', { leaseId: id });
            const closed = f.when('client-keepalive-closed', { member: 'c1' });
            const stuck = f.message('renew-forward', s(6.9), { to: 'n1' });
            return revoked !== undefined && revoked < s(12.5)
              ? {
                  choice: 1,
                  because:
                    `n2 forwarded a’s renewal to the frozen n1 at ${at(stuck?.sentUs)} and waited; later ` +
                    `renewals queued behind it on the same stream. a’s keep-alive channel closed at its deadline ` +
                    `(${at(closed)}) and the lease was revoked at ${at(revoked)}, although ` +
                    `${f.leaderAt(s(9)) ?? 'a new leader'} had led since ` +
                    `${at(f.when('raft-role', { where: (e) => e.fields.role === 'leader', from: s(6.9) }))}.`,
                }
              : { choice: 0, because: `a’s lease was not revoked by 12.5 s (revoked: ${at(revoked)}).` };
          },
        },
      },
    ],
  },
  {
    id: 'article-forwarding',
    topic: T_ARTICLE,
    title: 'Renewals are forwarded to the leader',
    file: 'scenarios/renew-forwarding.yaml',
    steps: [
      {
        at: (f) => f.midFlight('keepalive', s(1), { from: 'c1' }),
        say: 'c1’s keep-alive stream is connected to n3, a follower. Its renewal (green) arrives at n3.',
        predict: {
          question: 'Which member’s lessor will renew the lease?',
          choices: ['n3, the member c1 talks to', 'n1, the leader', 'All three'],
          revealAt: (f) => {
            const m = f.message('keepalive-answer', s(1), { to: 'c1' });
            return m?.arriveUs;
          },
          outcome: (f) => {
            const renew = f.first('lease-renew', { lease: 'L1', from: s(1) });
            const who = renew === undefined ? undefined : eventMember(renew);
            const all = new Set(f.all('lease-renew', { lease: 'L1', from: s(1), before: s(4) }).map(eventMember));
            return {
              choice: all.size > 1 ? 2 : who === 'n3' ? 0 : 1,
              because:
                `n3’s lessor is demoted: it keeps every lease at forever and would refuse. n3 forwarded the ` +
                `renewal to ${who ?? '?'} over peer HTTP (pink), whose lessor renewed it at ` +
                `${at(renew === undefined ? undefined : eventTime(renew))}; the answer went back through n3.`,
            };
          },
        },
      },
      {
        at: (f) => f.midFlight('renew-forward', s(5)),
        say:
          'Each renewal costs two extra hops. Renewals never go through raft: they change only the ' +
          'leader’s in-memory expiry, which is why a leader change can lose them (next lessons).',
      },
    ],
  },
  {
    id: 'article-promote',
    topic: T_ARTICLE,
    title: 'Promote and Demote: only the primary counts time',
    file: 'scenarios/promote-demote-timeline.yaml',
    steps: [
      {
        at: s(1),
        say:
          'A 10 s lease with a key. n1 leads and its lessor is primary (the gold ring is its 500 ms run ' +
          'loop). n2 and n3 applied the same grant but hold the lease at forever.',
      },
      {
        at: s(6),
        say: 'n1 crashes now, with 4 s left on the lease: the only running countdown is gone with it.',
        predict: {
          question: 'When a new leader takes over, how much time will the lease have?',
          choices: ['About 4 s, as before', 'About the full 10 s again', 'None: it expires at once'],
          revealAt: (f) => {
            const t = f.when('lease-promoted', { lease: 'L1', from: s(6) });
            return t === undefined ? undefined : t + 1000;
          },
          outcome: (f) => {
            const p = f.first('lease-promoted', { lease: 'L1', from: s(6) });
            if (p === undefined) return { choice: 2, because: 'No member promoted the lease in this run.' };
            const rem = p.fields.remaining;
            return {
              choice: rem >= 9 ? 1 : rem >= 3 ? 0 : 2,
              because:
                `${eventMember(p)} became leader and, on applying its own term’s first entry at ` +
                `${at(eventTime(p))}, promoted its lessor with ${rem} s remaining: no checkpoint had recorded ` +
                `the time already spent, so Promote starts from the granted TTL (plus the 1 s election timeout). ` +
                `New expiry: ${at(expiryOf(p))}.`,
            };
          },
        },
      },
      {
        at: (f) => f.keyDeletedAt('/locks/job'),
        say: (f) =>
          `The key goes at ${at(f.keyDeletedAt('/locks/job'))}, long after the original 10 s deadline. While no ` +
          `member was primary (between the crash and the promotion) nothing could expire at all.`,
      },
    ],
  },
  {
    id: 'article-no-checkpoint',
    topic: T_ARTICLE,
    title: 'A leader change without checkpoints',
    file: 'scenarios/checkpoint-off-leader-change.yaml',
    steps: [
      {
        at: s(29.9),
        say:
          'A 60 s lease that nobody renews, with 30 s left. Its expiry lives only in the memory of n1’s ' +
          'lessor; at 30 s an operator moves leadership to n2.',
        predict: {
          question: 'When will the key be deleted?',
          choices: ['At about 60 s, as granted', 'A few seconds late', 'About 30 s late'],
          revealAt: (f) => {
            const t = f.keyDeletedAt('/locks/leader-job');
            return t === undefined ? undefined : t + 1000;
          },
          outcome: (f) => lateness(f, '/locks/leader-job', 'L1'),
        },
      },
    ],
  },
  {
    id: 'article-checkpoint',
    topic: T_ARTICLE,
    title: 'Checkpoints carry the elapsed time across a leader change',
    file: 'scenarios/checkpoint-on-leader-change.yaml',
    steps: [
      {
        at: (f) => f.midFlight('MsgApp', s(1), { carries: 'LeaseCheckpoint' }),
        say:
          'The same lease with checkpointing on: every checkpoint interval (10 s here) the primary ' +
          'writes the remaining time into raft as a LeaseCheckpoint entry (purple), so followers learn it.',
      },
      {
        at: s(34.9),
        say: 'Leadership moves from n1 to n2 at 35 s, as in the previous lesson.',
        predict: {
          question: 'When will the key be deleted now?',
          choices: ['At about 60 s, as granted', 'A few seconds late', 'About 30 s late'],
          revealAt: (f) => {
            const t = f.keyDeletedAt('/locks/leader-job');
            return t === undefined ? undefined : t + 1000;
          },
          outcome: (f) => lateness(f, '/locks/leader-job', 'L1'),
        },
      },
    ],
  },
  {
    id: 'knob-run-loop',
    topic: T_KNOBS,
    title: 'The 500 ms run loop quantises expiry',
    file: 'scenarios/run-loop-500ms.yaml',
    steps: [
      {
        at: s(2.4),
        say: (f) =>
          `Three 2 s leases. B expires at ${at(f.expiryAt('B', s(2.4)))} and C at ` +
          `${at(f.expiryAt('C', s(2.4)))}. The primary looks for expired leases only on its run-loop passes, ` +
          `every 500 ms (the gold ring).`,
        predict: {
          question: 'B and C expire 10 ms apart. How far apart will their keys be deleted?',
          choices: ['About 10 ms', 'About half a second'],
          revealAt: s(3.1),
          outcome: (f) => {
            const b = f.keyDeletedAt('/b');
            const c = f.keyDeletedAt('/c');
            const gap = (c ?? 0) - (b ?? 0);
            return {
              choice: gap >= 250_000 ? 1 : 0,
              because:
                `/b went at ${at(b)}, /c at ${at(c)}: ${span(gap)} apart. C expired just after the pass that ` +
                `took B, so it waited for the next one.`,
            };
          },
        },
      },
    ],
  },
  {
    id: 'knob-revoke-rate',
    topic: T_KNOBS,
    title: 'The revoke rate throttles a storm',
    file: 'scenarios/rate-limited-revocation.yaml',
    steps: [
      {
        at: s(5),
        say:
          '3000 leases with TTL 5 s were granted together, so they all expire at 5.003 s. The revoke ' +
          'rate (default 1000/s) lets each 500 ms pass take at most 500 of them.',
        predict: {
          question: 'When will the last of the 3000 leases be revoked?',
          choices: ['At the next run-loop pass, around 5.5 s', 'About 3 s after they expired'],
          revealAt: (f) => f.result.scenario.durationUs,
          outcome: (f) => {
            const revokes = f.all('lease-revoke', { member: f.leaderAt(s(5)) ?? 'n1' });
            const last = revokes.at(-1);
            const t = last === undefined ? undefined : eventTime(last);
            return {
              choice: t !== undefined && t > s(6.2) ? 1 : 0,
              because:
                `${revokes.length} leases were revoked between ` +
                `${at(revokes[0] === undefined ? undefined : eventTime(revokes[0]))} and ${at(t)}: one batch of ` +
                `at most 500 per pass, so a mass expiry cannot flood raft.`,
            };
          },
        },
      },
    ],
  },
  {
    id: 'knob-checkpoint-interval',
    topic: T_KNOBS,
    title: 'The checkpoint interval',
    file: 'scenarios/checkpoint-on-leader-change.yaml',
    steps: [
      {
        at: s(1),
        say:
          'Checkpointing is on with a 10 s interval (etcd’s default is 5 min). A lease is checkpointed ' +
          'only while its remaining TTL is longer than the interval.',
        predict: {
          question: 'How many checkpoints will n1 propose for this 60 s lease before leadership moves at 35 s?',
          choices: ['None', 'A few, one per interval', 'One per second'],
          revealAt: s(35),
          outcome: (f) => {
            const props = f.all('lessor-checkpoint-propose', { member: 'n1', before: s(35) });
            return {
              choice: props.length === 0 ? 0 : props.length < 10 ? 1 : 2,
              because:
                `n1 proposed ${props.length}, at ${props.map((e) => at(eventTime(e))).join(', ')}: each applied ` +
                `checkpoint schedules the next one interval later. A shorter interval loses less time on a ` +
                `leader change and costs more raft entries.`,
            };
          },
        },
      },
    ],
  },
];

export const courseLesson = (id: string): CourseLesson | undefined => COURSE.find((l) => l.id === id);

/** Topics in the order lessons first name them. */
export function topics(): string[] {
  return [...new Set(COURSE.map((l) => l.topic))];
}
