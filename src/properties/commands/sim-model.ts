/**
 * What the model-based commands know about a run while it is being generated: the clock of the script,
 * which members are up, which leases were granted, which keep-alives and locks are open. It is what
 * `check` consults, so that every generated step is one the scenario parser accepts and the replay can
 * act on (no restart of a running member, no keep-alive of a lease never granted).
 */
import type { Micros } from '../../clock/time.js';

export interface ModelLease {
  readonly label: string;
  readonly ttlSeconds: number;
}

export interface SimModel {
  /** Virtual time of the next step. */
  now: Micros;
  readonly members: readonly string[];
  readonly clients: readonly string[];
  readonly crashed: Set<string>;
  /** Member or client → when its timed pause ends. */
  readonly pausedUntil: Map<string, Micros>;
  /** `member/loop` → when its timed stall ends. */
  readonly stalledUntil: Map<string, Micros>;
  readonly leases: ModelLease[];
  /** Keys written so far, in order. */
  readonly keys: string[];
  /** `client lease` pairs with an open keep-alive. */
  readonly keepAlives: Set<string>;
  /** `client lock` pairs that took a lock and have not unlocked. */
  readonly locks: Set<string>;
  /** Our best guess of the leader: n1, then whoever a transfer named; undefined once it crashed. */
  likelyLeader: string | undefined;
  partitioned: boolean;
  grantBatches: number;
}

export function newSimModel(members: number, clients = 3): SimModel {
  return {
    now: 0,
    members: Array.from({ length: members }, (_, i) => `n${i + 1}`),
    clients: Array.from({ length: clients }, (_, i) => `c${i + 1}`),
    crashed: new Set(),
    pausedUntil: new Map(),
    stalledUntil: new Map(),
    leases: [],
    keys: [],
    keepAlives: new Set(),
    locks: new Set(),
    likelyLeader: 'n1',
    partitioned: false,
    grantBatches: 0,
  };
}

export const running = (m: SimModel): string[] => m.members.filter((n) => !m.crashed.has(n));

export const isPaused = (m: SimModel, who: string): boolean => (m.pausedUntil.get(who) ?? -1) > m.now;

export const isStalled = (m: SimModel, member: string, loop: 'raft' | 'apply'): boolean =>
  (m.stalledUntil.get(`${member}/${loop}`) ?? -1) > m.now;

/** Picks `items[pick mod n]`: command parameters are raw numbers resolved against the model when run. */
export function pickOf<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}
