/**
 * Fault schedules: leader transfers, crashes and restarts, partitions and heals, member and client
 * pauses, raft and apply stalls, wall-clock jumps. Weights are relative; 0 leaves a fault out.
 */
import fc from 'fast-check';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import * as F from '../commands/fault-commands.js';
import { commandArb, type WeightedCommand } from './command-arb.js';
import { gapArb } from './gap-arb.js';

export type FaultCommand =
  | 'crash'
  | 'restart'
  | 'transfer-leader'
  | 'partition'
  | 'heal'
  | 'pause-member'
  | 'pause-client'
  | 'stall-raft'
  | 'stall-apply'
  | 'clock';

export interface FaultConstraints {
  readonly gap?: fc.Arbitrary<Micros>;
  /** How long pauses and stalls last; default 0.1 s..12 s. */
  readonly holdUs?: { readonly min: Micros; readonly max: Micros };
  /** Wall-clock jump sizes (either sign); default 1 s..1 h. */
  readonly jumpUs?: { readonly min: Micros; readonly max: Micros };
  /** Probability that a member fault aims at the model's guess of the leader; default 0.6. */
  readonly leaderBias?: number;
  readonly weights?: Partial<Record<FaultCommand, number>>;
}

const DEFAULT_WEIGHTS: Record<FaultCommand, number> = {
  crash: 2,
  restart: 2,
  'transfer-leader': 2,
  partition: 1,
  heal: 1,
  'pause-member': 1,
  'pause-client': 1,
  'stall-raft': 1,
  'stall-apply': 1,
  clock: 1,
};

export function faultCommands(c: FaultConstraints = {}): WeightedCommand[] {
  const gap = c.gap ?? gapArb();
  const w = { ...DEFAULT_WEIGHTS, ...c.weights };
  const bias = Math.round((c.leaderBias ?? 0.6) * 10);
  const member: fc.Arbitrary<F.MemberPick> = fc.oneof(
    { weight: bias, arbitrary: fc.constant('leader' as const) },
    { weight: 10 - bias, arbitrary: fc.nat({ max: 6 }) },
  );
  const hold = fc
    .integer({ min: c.holdUs?.min ?? MICROS_PER_SECOND / 10, max: c.holdUs?.max ?? 12 * MICROS_PER_SECOND })
    .map((us) => Math.round(us / 1000) * 1000);
  const jump = fc
    .tuple(
      fc.boolean(),
      fc.integer({ min: c.jumpUs?.min ?? MICROS_PER_SECOND, max: c.jumpUs?.max ?? 3600 * MICROS_PER_SECOND }),
    )
    .map(([neg, us]) => (neg ? -1 : 1) * Math.round(us / MICROS_PER_SECOND) * MICROS_PER_SECOND);
  return [
    [w.crash, commandArb(F.crash, fc.record({ member }), gap)],
    [w.restart, commandArb(F.restart, fc.record({ member: fc.nat({ max: 6 }) }), gap)],
    [w['transfer-leader'], commandArb(F.transferLeader, fc.record({ member: fc.nat({ max: 6 }) }), gap)],
    [
      w.partition,
      commandArb(F.partition, fc.record({ groups: fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 7 }) }), gap),
    ],
    [w.heal, commandArb(F.heal, fc.constant({}), gap)],
    [w['pause-member'], commandArb(F.pauseMember, fc.record({ member, forUs: hold }), gap)],
    [w['pause-client'], commandArb(F.pauseClient, fc.record({ client: fc.nat({ max: 2 }), forUs: hold }), gap)],
    [w['stall-raft'], commandArb(F.stall, fc.record({ member, loop: fc.constant('raft' as const), forUs: hold }), gap)],
    [
      w['stall-apply'],
      commandArb(F.stall, fc.record({ member, loop: fc.constant('apply' as const), forUs: hold }), gap),
    ],
    [w.clock, commandArb(F.clockJump, fc.record({ member, jumpUs: jump }), gap)],
  ];
}
