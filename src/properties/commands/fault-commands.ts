/**
 * Fault commands: crashes and restarts, leader transfers, partitions, member and client pauses, raft and
 * apply stalls, wall-clock jumps. A member parameter is a raw index into the running members, or
 * `'leader'` for the model's best guess of the leader (faults on the leader are the interesting ones).
 */
import type { Micros } from '../../clock/time.js';
import type { CommandSpec } from './step-command.js';
import { isPaused, isStalled, pickOf, running, type SimModel } from './sim-model.js';

export type MemberPick = number | 'leader';

/** The member a pick names among running, unpaused members. */
export function memberOf(m: Readonly<SimModel>, pick: MemberPick): string | undefined {
  const up = running(m as SimModel).filter((n) => !isPaused(m as SimModel, n));
  if (pick === 'leader' && m.likelyLeader !== undefined && up.includes(m.likelyLeader)) return m.likelyLeader;
  return pickOf(up, pick === 'leader' ? 0 : pick);
}

/** `m` as of time `at`, for checks that look at pauses and stalls. */
const at = (m: Readonly<SimModel>, t: Micros): SimModel => ({ ...(m as SimModel), now: t });

export const crash: CommandSpec<{ member: MemberPick }> = {
  name: 'crash',
  check: (m, p, t) =>
    memberOf(at(m, t), p.member) !== undefined && !isStalledAny(at(m, t), memberOf(at(m, t), p.member)!),
  step(m, p) {
    const member = memberOf(m, p.member)!;
    m.crashed.add(member);
    if (m.likelyLeader === member) m.likelyLeader = undefined;
    return { kind: 'crash', atUs: m.now, member };
  },
};

export const restart: CommandSpec<{ member: number }> = {
  name: 'restart',
  check: (m) => m.crashed.size > 0,
  step(m, p) {
    const member = pickOf([...m.crashed], p.member)!;
    m.crashed.delete(member);
    return { kind: 'restart', atUs: m.now, member };
  },
};

export const transferLeader: CommandSpec<{ member: number }> = {
  name: 'transfer-leader',
  check: (m) => running(m as SimModel).length > 1,
  step(m, p) {
    const to = pickOf(running(m), p.member)!;
    m.likelyLeader = to;
    return { kind: 'transfer-leader', atUs: m.now, to };
  },
};

export const pauseMember: CommandSpec<{ member: MemberPick; forUs: Micros }> = {
  name: 'pause-member',
  check: (m, p, t) =>
    memberOf(at(m, t), p.member) !== undefined && !isStalledAny(at(m, t), memberOf(at(m, t), p.member)!),
  step(m, p) {
    const member = memberOf(m, p.member)!;
    m.pausedUntil.set(member, m.now + p.forUs);
    return { kind: 'pause', atUs: m.now, member, forUs: p.forUs };
  },
};

export const pauseClient: CommandSpec<{ client: number; forUs: Micros }> = {
  name: 'pause-client',
  check: (m, p, t) => !isPaused(at(m, t), pickOf(m.clients, p.client)!),
  step(m, p) {
    const client = pickOf(m.clients, p.client)!;
    m.pausedUntil.set(client, m.now + p.forUs);
    return { kind: 'pause', atUs: m.now, client, forUs: p.forUs };
  },
};

export const stall: CommandSpec<{ member: MemberPick; loop: 'raft' | 'apply'; forUs: Micros }> = {
  name: 'stall',
  check: (m, p, t) => {
    const member = memberOf(at(m, t), p.member);
    return member !== undefined && !isStalled(at(m, t), member, p.loop);
  },
  step(m, p) {
    const member = memberOf(m, p.member)!;
    m.stalledUntil.set(`${member}/${p.loop}`, m.now + p.forUs);
    return { kind: 'stall', atUs: m.now, member, loop: p.loop, forUs: p.forUs };
  },
};

/** `groups[i]` is the group (0..2) of member i; empty groups are dropped. */
export const partition: CommandSpec<{ groups: readonly number[] }> = {
  name: 'partition',
  check: (m, p) => m.members.length > 1 && new Set(m.members.map((_, i) => p.groups[i % p.groups.length])).size > 1,
  step(m, p) {
    const groups = [0, 1, 2]
      .map((g) => m.members.filter((_, i) => p.groups[i % p.groups.length] === g))
      .filter((g) => g.length > 0);
    m.partitioned = true;
    m.likelyLeader = undefined;
    return { kind: 'partition', atUs: m.now, groups };
  },
};

export const heal: CommandSpec<Record<string, never>> = {
  name: 'heal',
  check: (m) => m.partitioned,
  step(m) {
    m.partitioned = false;
    return { kind: 'heal', atUs: m.now };
  },
};

export const clockJump: CommandSpec<{ member: MemberPick; jumpUs: Micros }> = {
  name: 'clock',
  check: (m, p, t) => memberOf(at(m, t), p.member) !== undefined,
  step: (m, p) => ({ kind: 'clock', atUs: m.now, member: memberOf(m, p.member)!, jumpUs: p.jumpUs }),
};

function isStalledAny(m: SimModel, member: string): boolean {
  return isStalled(m, member, 'raft') || isStalled(m, member, 'apply');
}
