/** Faults: signals to processes, stalled loops, crashes, leader moves, partitions and clock jumps. */
import { appName, client, duration, groups, list, member, oneOf } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { formatDuration } from '../duration.js';
import { def, opt, req, type Decoded } from '../fields.js';
import type { StepReplay } from '../replay/step-replay.js';
import { appAction } from '../replay/app-hook.js';
import type { PauseStep, ResumeStep } from '../types.js';
import type { StepKindEntries } from './entry.js';

type FaultKind =
  | 'pause'
  | 'resume'
  | 'stall'
  | 'unstall'
  | 'crash'
  | 'restart'
  | 'kill'
  | 'cut'
  | 'transfer-leader'
  | 'partition'
  | 'heal'
  | 'clock';

const loop = (what: string) => def('loop', oneOf(['raft', 'apply'] as const), 'raft', what);

export const FAULT_STEPS: StepKindEntries<FaultKind> = {
  pause: {
    description:
      'SIGSTOP: the process stops doing anything; resumes after `for` when given. Give member, client or ' +
      '(extension, under serve FILE -- CMD) app: the program under test.',
    fields: {
      member: opt('member', member, 'Member to stop.'),
      client: opt('client', client, 'Client to stop.'),
      app: opt('app', appName, 'Extension: program under test to stop (its whole process group).'),
      forUs: opt('for', duration({ positive: true }), 'Resume after this long.'),
    },
    check: oneTarget('pause'),
    describe: (s) => `pause ${targetOf(s)}${s.forUs !== undefined ? ` for ${formatDuration(s.forUs)}` : ''} (SIGSTOP)`,
    endUs: (s) => s.atUs + (s.forUs ?? 0),
    perform: (s, r) => {
      const act = signal(s, r);
      if (act('pause') && s.forUs !== undefined) r.cluster.sched.after(s.forUs, () => act('resume'));
    },
  },
  resume: {
    description: 'SIGCONT. Give member, client or (extension, under serve) app.',
    fields: {
      member: opt('member', member, 'Member to resume.'),
      client: opt('client', client, 'Client to resume.'),
      app: opt('app', appName, 'Extension: program under test to resume.'),
    },
    check: oneTarget('resume'),
    describe: (s) => `resume ${targetOf(s)} (SIGCONT)`,
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
    description:
      'A crashed member starts again from what it persisted. Extension, under serve FILE -- CMD: `app`, a ' +
      'program under test, is killed if it runs and started again with the same command.',
    fields: {
      member: opt('member', member, 'Member to restart.'),
      app: opt('app', appName, 'Extension: program under test to start again.'),
    },
    check: oneOf2('restart'),
    describe: (s) => `restart ${targetOf(s)}`,
    perform: (s, r) => {
      if (s.app !== undefined) {
        if (appAction(r, s.kind, { kind: 'restart', app: s.app })) r.emit(s.app, 'app-restart', {});
        return;
      }
      const m = s.member!; // the parser's oneOf2 rule: a restart without app names a member
      if (r.cluster.server(m) !== undefined)
        return r.stepError(s.kind, `${m} is running; only a crashed member can restart`);
      r.cluster.restart(m);
    },
  },
  kill: {
    description: 'Extension, under serve FILE -- CMD: SIGKILL to a program under test (its whole process group).',
    fields: { app: req('app', appName, 'Program under test to kill.') },
    describe: (s) => `kill ${s.app} (SIGKILL)`,
    perform: (s, r) => {
      if (appAction(r, s.kind, { kind: 'kill', app: s.app })) r.emit(s.app, 'app-signal', { signal: 'SIGKILL' });
    },
  },
  cut: {
    description:
      'Extension, under serve FILE -- CMD: the connections of a program under test to these members (default: ' +
      'every member) are black-holed, as by a firewall dropping its packets, until `heal: { app }`.',
    fields: {
      app: req('app', appName, 'Program under test to cut off.'),
      from: opt('from', list(member, { unique: true }), 'Members it can no longer reach (default: all).'),
    },
    describe: (s) => `cut ${s.app} off from ${s.from === undefined ? 'every member' : s.from.join(', ')}`,
    perform: (s, r) => {
      const from = s.from ?? r.cluster.names;
      if (appAction(r, s.kind, { kind: 'cut', app: s.app, from })) r.emit(s.app, 'app-cut', { from });
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
    description: 'Removes every partition. Extension, with `app` (under serve): ends every cut of that program.',
    fields: { app: opt('app', appName, 'Extension: program under test whose cuts end.') },
    describe: (s) => (s.app === undefined ? 'heal the network' : `heal ${s.app}'s connections`),
    perform: (s, r) => {
      if (s.app === undefined) return r.cluster.heal();
      if (appAction(r, s.kind, { kind: 'heal', app: s.app })) r.emit(s.app, 'app-heal', { to: r.cluster.names });
    },
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

const targetOf = (s: { member?: string; client?: string; app?: string }): string =>
  s.member ?? s.client ?? `app ${s.app}`;

/**
 * SIGSTOP or SIGCONT, later or now, of the step's member (every loop of it), client process or program
 * under test; the function says whether it acted (a program's signal can fail: see app-hook.ts).
 */
function signal(s: PauseStep | ResumeStep, r: StepReplay): (kind: 'pause' | 'resume') => boolean {
  const c = r.cluster;
  const { member: m, app } = s;
  if (m !== undefined)
    return (kind) => {
      if (kind === 'pause') c.pause(m);
      else c.resume(m);
      return true;
    };
  if (app !== undefined)
    return (kind) => {
      if (!appAction(r, kind, { kind, app })) return false;
      r.emit(app, 'app-signal', { signal: kind === 'pause' ? 'SIGSTOP' : 'SIGCONT' });
      return true;
    };
  const name = s.client!; // the parser's oneTarget rule: a step without member or app names a client
  const p = r.client(name, undefined).client.process;
  return (kind) => {
    r.emit(name, kind === 'pause' ? 'client-pause' : 'client-resume', {});
    if (kind === 'pause') p.pause();
    else p.resume();
    return true;
  };
}

/**
 * Exactly one of member, client and app was written (judged by what was written, so a bad name is not
 * "missing").
 */
function oneTarget(kind: string) {
  return ({ posOf, pos }: Decoded<{ member?: string; client?: string; app?: string }>, ctx: ParseContext): boolean => {
    const given = (['member', 'client', 'app'] as const).filter((f) => posOf[f] !== undefined);
    if (given.length === 1) return true;
    ctx.error(
      pos,
      given.length === 0
        ? `${kind} step needs "member", "client" or "app"`
        : `${kind} step has ${given.length === 2 ? 'both ' : ''}${given.map((f) => `"${f}"`).join(' and ')}; give one`,
    );
    return false;
  };
}

/** Exactly one of member and app was written. */
function oneOf2(kind: string) {
  return ({ posOf, pos }: Decoded<{ member?: string; app?: string }>, ctx: ParseContext): boolean => {
    if ((posOf.member === undefined) !== (posOf.app === undefined)) return true;
    ctx.error(
      pos,
      posOf.member === undefined
        ? `${kind} step needs "member" or "app"`
        : `${kind} step has both "member" and "app"; give one`,
    );
    return false;
  };
}
