/**
 * The workload: grants with TTLs, keep-alive clients, puts with and without leases, renewals, revokes,
 * TimeToLive reads, and optionally locks with a fenced resource. Weights are relative; set one to 0 to
 * leave that command out.
 */
import fc from 'fast-check';
import type { Micros } from '../../clock/time.js';
import * as L from '../commands/lease-commands.js';
import * as K from '../commands/lock-commands.js';
import { commandArb, type WeightedCommand } from './command-arb.js';
import { gapArb } from './gap-arb.js';

export interface WorkloadConstraints {
  /** Requested TTLs, seconds; default 1..20 (the minimum TTL clamps the smallest). */
  readonly ttl?: { readonly min: number; readonly max: number };
  /** Lock TTLs, seconds; default 2..6. */
  readonly lockTtl?: { readonly min: number; readonly max: number };
  /** `grant-many` batch sizes; absent: no batches. */
  readonly grantMany?: { readonly min: number; readonly max: number; readonly maxSpreadUs?: Micros };
  readonly gap?: fc.Arbitrary<Micros>;
  readonly weights?: Partial<Record<WorkloadCommand, number>>;
}

export type WorkloadCommand =
  | 'grant'
  | 'grant-many'
  | 'revoke'
  | 'put'
  | 'delete'
  | 'keepalive'
  | 'keepalive-stop'
  | 'keepalive-once'
  | 'timetolive'
  | 'lock'
  | 'unlock'
  | 'fenced-write';

const DEFAULT_WEIGHTS: Record<WorkloadCommand, number> = {
  grant: 4,
  'grant-many': 0,
  revoke: 1,
  put: 3,
  delete: 1,
  keepalive: 3,
  'keepalive-stop': 1,
  'keepalive-once': 2,
  timetolive: 1,
  lock: 0,
  unlock: 0,
  'fenced-write': 0,
};

const pick = fc.nat({ max: 1000 });
const via = fc.option(fc.nat({ max: 6 }), { nil: undefined, freq: 2 });

export function workloadCommands(c: WorkloadConstraints = {}): WeightedCommand[] {
  const gap = c.gap ?? gapArb();
  const ttl = fc.integer({ min: c.ttl?.min ?? 1, max: c.ttl?.max ?? 20 });
  const w = { ...DEFAULT_WEIGHTS, ...(c.grantMany ? { 'grant-many': 1 } : {}), ...c.weights };
  const batch = c.grantMany ?? { min: 1, max: 1 };
  return [
    [w.grant, commandArb(L.grant, fc.record({ ttl, via }), gap)],
    [
      w['grant-many'],
      commandArb(
        L.grantMany,
        fc.record({ count: fc.integer(batch), ttl, spreadUs: fc.integer({ min: 0, max: batch.maxSpreadUs ?? 0 }) }),
        gap,
      ),
    ],
    [w.revoke, commandArb(L.revoke, fc.record({ lease: pick, via }), gap)],
    [
      w.put,
      commandArb(L.put, fc.record({ key: fc.nat({ max: 8 }), lease: fc.option(pick, { nil: undefined }), via }), gap),
    ],
    [w.delete, commandArb(L.del, fc.record({ key: pick, via }), gap)],
    [w.keepalive, commandArb(L.keepAlive, fc.record({ lease: pick, client: fc.nat({ max: 2 }), via }), gap)],
    [w['keepalive-stop'], commandArb(L.keepAliveStop, fc.record({ pick }), gap)],
    [w['keepalive-once'], commandArb(L.keepAliveOnce, fc.record({ lease: pick, via }), gap)],
    [w.timetolive, commandArb(L.timeToLive, fc.record({ lease: pick, via }), gap)],
    [
      w.lock,
      commandArb(
        K.lock,
        fc.record({
          client: fc.nat({ max: 2 }),
          name: fc.nat({ max: 1 }),
          ttl: fc.integer({ min: c.lockTtl?.min ?? 2, max: c.lockTtl?.max ?? 6 }),
        }),
        gap,
      ),
    ],
    [w.unlock, commandArb(K.unlock, fc.record({ pick }), gap)],
    [w['fenced-write'], commandArb(K.fencedWrite, fc.record({ pick }), gap)],
  ];
}
