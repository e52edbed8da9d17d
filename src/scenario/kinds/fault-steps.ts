/** Faults: signals to processes, stalled loops, crashes, leader moves, partitions and clock jumps. */
import { client, duration, groups, member, oneOf } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { formatDuration } from '../duration.js';
import { def, opt, req, type Decoded } from '../fields.js';
import type { StepReplay } from '../replay/step-replay.js';
import type { PauseStep, ResumeStep } from '../types.js';
import type { StepKindEntries } from './entry.js';

type FaultKind =
  | 'pause'
  | 'resume'
  | 'stall'
  | 'unstall'
  | 'crash'
  | 'restart'
  | 'transfer-leader'
  | 'partition'
  | 'heal'
  | 'clock';

const loop = (what: string) => def('loop', oneOf(['raft', 'apply'] as const), 'raft', what);

export const FAULT_STEPS: StepKindEntries<FaultKind> = {
  pause: {
    description: 'SIGSTOP: the process stops doing anything; resumes after `for` when given. Give member or client.',
    fields: {
      member: opt('member', member, 'Member to stop.'),
      client: opt('client', client, 'Client to stop.'),
      forUs: opt('for', duration({ positive: true }), 'Resume after this long.'),
    },
    check: oneTarget('pause'),
    describe: (s) =>
      `pause ${s.member ?? s.client}${s.forUs !== undefined ? ` for ${formatDuration(s.forUs)}` : ''} (SIGSTOP)`,
    endUs: (s) => s.atUs + (s.forUs ?? 0),
    perform: (s, r) => {
      const act = signal(s, r);
      act('pause');
      if (s.forUs !== undefined) r.cluster.sched.after(s.forUs, () => act('resume'));
    },
  },
  resume: {
    description: 'SIGCONT. Give member or client.',
    fields: { member: opt('member', member, 'Member to resume.'), client: opt('client', client, 'Client to resume.') },
    check: oneTarget('resume'),
    describe: (s) => `resume ${s.member ?? s.client} (SIGCONT)`,
    perform: (s, r) => signal(s, r)('resume'),
  },
  stall: {
    description:
      'Extension: one loop of the member hangs while the rest of it keeps serving: `raft` (a leader stuck in fsync: ' +
      'no ticks, no messages, proposals queue up; etcd-io/etcd#15247) or `apply` ' +
      '(committed entries wait to be applied). Ends after `for`, or at `unstall`.',
    fields: {
      member: req('member', member, 'Member whose loop hangs.'),
      loop: loop('Which loop hangs: raft or apply.'),
      forUs: opt('for', duration({ positive: true }), 'Unstall after this long.'),
    },
    describe: (s) =>
      `${s.member}'s ${s.loop} loop stalls${s.forUs !== undefined ? ` for ${formatDuration(s.forUs)}` : ''}`,
    endUs: (s) => s.atUs + (s.forUs ?? 0),
    perform: (s, r) => {
      const c = r.cluster;
      c.stall(s.member, s.loop);
      if (s.forUs !== undefined) c.sched.after(s.forUs, () => c.unstall(s.member, s.loop));
    },
  },
  unstall: {
    description: 'Extension: the stalled loop of the member runs again; what it held runs now, in order.',
    fields: {
      member: req('member', member, 'Member whose loop resumes.'),
      loop: loop('Which loop: raft or apply.'),
    },
    describe: (s) => `${s.member}'s ${s.loop} loop runs again`,
    perform: (s, r) => r.cluster.unstall(s.member, s.loop),
  },
  crash: {
    description: 'The member stops; volatile state is lost.',
    fields: { member: req('member', member, 'Member that crashes.') },
    describe: (s) => `crash ${s.member}`,
    perform: (s, r) => r.cluster.crash(s.member),
  },
  restart: {
    description: 'A crashed member starts again from what it persisted.',
    fields: { member: req('member', member, 'Member to restart.') },
    describe: (s) => `restart ${s.member}`,
    perform: (s, r) => {
      if (r.cluster.server(s.member) !== undefined)
        return r.stepError(s.kind, `${s.member} is running; only a crashed member can restart`);
      r.cluster.restart(s.member);
    },
  },
  'transfer-leader': {
    description: 'etcdctl move-leader.',
    fields: { to: req('to', member, 'Member to become leader.') },
    describe: (s) => `move leadership to ${s.to}`,
    perform: (s, r) => {
      if (!r.cluster.transferLeader(s.to)) r.stepError(s.kind, 'there is no leader to transfer from');
    },
  },
  partition: {
    description: 'Members talk only inside their group; clients reach every member.',
    fields: { groups: req('groups', groups, 'Lists of member names; every member in exactly one list.') },
    describe: (s) => `partition ${s.groups.map((g) => `{${g.join(',')}}`).join(' ')}`,
    perform: (s, r) => r.cluster.partition(s.groups),
  },
  heal: {
    description: 'Removes every partition.',
    fields: {},
    describe: () => 'heal the network',
    perform: (_s, r) => r.cluster.heal(),
  },
  clock: {
    description:
      "The member's (or, extension, the client's) wall clock " +
      'jumps; its monotonic clock does not. Give member or client.',
    fields: {
      member: opt('member', member, 'Member whose wall clock jumps.'),
      client: opt('client', client, "Extension: client whose wall clock jumps (a holder's own clock)."),
      jumpUs: req('jump', duration({ signed: true }), 'Signed jump, e.g. 30s or -30s.'),
    },
    check: oneTarget('clock'),
    describe: (s) =>
      `${s.member ?? s.client}'s wall clock jumps ${s.jumpUs >= 0 ? '+' : '-'}${formatDuration(Math.abs(s.jumpUs))}`,
    perform: (s, r) => {
      if (s.member !== undefined) return r.cluster.clockJump(s.member, s.jumpUs);
      // The clock moves whether or not the process runs.
      r.client(s.client!, undefined).client.process.jumpWall(s.jumpUs);
      r.emit(s.client!, 'client-clock-jump', { delta: s.jumpUs });
    },
  },
};

/** SIGSTOP or SIGCONT, later or now, of the step's member (every loop of it) or client process. */
function signal(s: PauseStep | ResumeStep, r: StepReplay): (kind: 'pause' | 'resume') => void {
  const c = r.cluster;
  const { member: m } = s;
  if (m !== undefined) return (kind) => (kind === 'pause' ? c.pause(m) : c.resume(m));
  const name = s.client!; // the parser's oneTarget rule: a step without member names a client
  const p = r.client(name, undefined).client.process;
  return (kind) => {
    r.emit(name, kind === 'pause' ? 'client-pause' : 'client-resume', {});
    if (kind === 'pause') p.pause();
    else p.resume();
  };
}

/** Exactly one of member and client was written (judged by what was written, so a bad name is not "missing"). */
function oneTarget(kind: string) {
  return ({ posOf, pos }: Decoded<{ member?: string; client?: string }>, ctx: ParseContext): boolean => {
    if ((posOf.member === undefined) !== (posOf.client === undefined)) return true;
    ctx.error(
      pos,
      posOf.member === undefined
        ? `${kind} step needs "member" or "client"`
        : `${kind} step has both "member" and "client"; give one`,
    );
    return false;
  };
}
