/**
 * Targeted run families, one per historical bug switch (and one for A1, whose switch is checkpointing
 * itself): the fault schedule that can trigger the bug, with its timing and sizes left to fast-check.
 * With the switch on, some run of the family violates a property; with it off, none does. Times are
 * computed from the run's own network latency where a fault must land inside a window a few
 * milliseconds wide (between a revoke's append and its commit, say); jitter and fsync are 0 so those
 * windows can be predicted.
 */
import fc from 'fast-check';
import { MICROS_PER_MS as MS, MICROS_PER_SECOND as S, type Micros } from '../../clock/time.js';
import type { BugName } from '../../lessor/bugs.js';
import { runLoopPeriodUs } from '../../lessor/config.js';
import type { GeneratedRun } from '../arbitraries/run-arb.js';
import * as F from '../commands/fault-commands.js';
import * as L from '../commands/lease-commands.js';
import * as K from '../commands/lock-commands.js';
import { DEFAULT_SCENARIO_CLUSTER, type RunSetup } from '../draft/run-setup.js';
import type { ScenarioCluster } from '../../scenario/types.js';
import { at, scripted } from './scripted.js';

/** A1 has no bug switch: the "bug" is running without lease checkpoints. */
export const CHECKPOINTING_OFF = 'lease-checkpoint-off';
export type FamilyName = BugName | typeof CHECKPOINTING_OFF;

export interface BugFamily {
  readonly catalogue: string;
  /** How the family triggers the bug, in a sentence. */
  readonly recipe: string;
  /** Runs with the bug on (true) or off (false); the same seed gives the same schedule either way. */
  arb(on: boolean): fc.Arbitrary<GeneratedRun>;
}

/** Latency from 1 to 2 ms in whole 0.1 ms steps; everything else at etcd's defaults. */
const latency = fc.integer({ min: 10, max: 20 }).map((t) => t * 100);
const seed = fc.integer({ min: 1, max: 2 ** 31 - 1 });

function setup(on: boolean, bug: BugName | undefined, cluster: Partial<ScenarioCluster>, seedValue: number): RunSetup {
  return {
    profile: 'v3.5',
    seed: seedValue,
    bugs: on && bug !== undefined ? [bug] : [],
    cluster: { ...DEFAULT_SCENARIO_CLUSTER, ...cluster },
  };
}

/** The first run-loop tick of n1 at or after `t` (its lessor ticks every 500 ms from boot, at -1 s). */
const tickAfter = (t: Micros): Micros => Math.ceil(t / runLoopPeriodUs) * runLoopPeriodUs;

/** When a grant sent to the leader at `t` applies there: client hop, append round trip. */
const grantApplied = (t: Micros, l: Micros): Micros => t + 3 * l;

const family = (catalogue: string, recipe: string, arb: (on: boolean) => fc.Arbitrary<GeneratedRun>): BugFamily => ({ catalogue, recipe, arb });

export const BUG_FAMILIES: { readonly [F in FamilyName]: BugFamily } = {
  'promote-on-election': family(
    'A2',
    'an unrenewed lease expires on n1, whose revoke reaches the followers; n1 crashes before it commits; the new leader applies it after promoting',
    (on) =>
      fc.record({ s: seed, l: latency, ttl: fc.integer({ min: 2, max: 4 }), t0: fc.integer({ min: 1, max: 4 }), d: fc.integer({ min: 2, max: 25 }), probe: fc.integer({ min: 0, max: 1200 }) }).map(({ s, l, ttl, t0, d, probe }) => {
        const grant = t0 * 100 * MS;
        const tick = tickAfter(grantApplied(grant, l) + ttl * S);
        const crash = tick + (d * l) / 10;
        return scripted(
          setup(on, 'promote-on-election', { latencyUs: l }, s),
          [
            at(grant, L.grant, { ttl, via: 0 }),
            at(crash, F.crash, { member: 0 }),
            at(crash + S + probe * MS, L.keepAliveOnce, { lease: 0, via: 1 }),
            at(crash + 4 * S, F.restart, { member: 0 }),
          ],
          5 * S,
        );
      }),
  ),
  'no-checkpoint-schedule-on-promote': family(
    'A4',
    'leases longer than the checkpoint interval, never renewed, and leader transfers: the new leader must keep checkpointing them',
    (on) =>
      fc
        .record({ s: seed, cpi: fc.integer({ min: 3, max: 5 }), ttls: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 3 }), moves: fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.nat({ max: 2 })), { minLength: 1, maxLength: 3 }), persist: fc.boolean() })
        .map(({ s, cpi, ttls, moves, persist }) =>
          scripted(
            setup(on, 'no-checkpoint-schedule-on-promote', { leaseCheckpoint: true, leaseCheckpointPersist: persist, checkpointIntervalUs: cpi * S }, s),
            [
              ...ttls.map((f, k) => at(100 * MS + k * 10 * MS, L.grant, { ttl: cpi + 3 + Math.round((f / 100) * 3 * cpi), via: undefined })),
              ...moves.map(([f, m]) => at((cpi + 1) * S + f * 2 * cpi * MS, F.transferLeader, { member: m })),
            ],
            (cpi + 3) * S,
          ),
        ),
  ),
  'checkpoints-not-persisted': family(
    'A5',
    'checkpoint and persist on; after a checkpoint, members restart and one of them is made leader before the next checkpoint',
    (on) =>
      fc.record({ s: seed, cpi: fc.integer({ min: 2, max: 3 }), ttl: fc.integer({ min: 20, max: 40 }), victim: fc.nat({ max: 2 }), lead: fc.integer({ min: 3, max: 15 }) }).map(({ s, cpi, ttl, victim, lead }) => {
        const down = (cpi + 2) * S;
        return scripted(
          setup(on, 'checkpoints-not-persisted', { leaseCheckpoint: true, leaseCheckpointPersist: true, checkpointIntervalUs: cpi * S }, s),
          [
            at(100 * MS, L.grant, { ttl, via: undefined }),
            at(down, F.crash, { member: victim }),
            at(down + 300 * MS, F.restart, { member: 0 }),
            // All three run again, so index `victim` names the member that restarted.
            at(down + 300 * MS + lead * 100 * MS, F.transferLeader, { member: victim }),
          ],
          3 * S,
        );
      }),
  ),
  'no-promote-spreading': family(
    'B1',
    'more than twice the revoke rate of leases with the same TTL, then a leader change: the promotion must spread their deadlines',
    (on) =>
      fc.record({ s: seed, rate: fc.constantFrom(8, 12, 16, 20), extra: fc.integer({ min: 1, max: 100 }), ttl: fc.integer({ min: 20, max: 30 }), move: fc.integer({ min: 0, max: 2000 }) }).map(({ s, rate, extra, ttl, move }) =>
        scripted(
          setup(on, 'no-promote-spreading', { revokeRatePerSecond: rate }, s),
          [at(100 * MS, L.grantMany, { count: 2 * rate + 1 + Math.round((extra / 100) * rate), ttl, spreadUs: 0 }), at(1500 * MS + move * MS, F.transferLeader, { member: 1 })],
          2 * S,
        ),
      ),
  ),
  'no-revoke-rate-limit': family(
    'B1',
    'more leases than half the revoke rate expire in the same tick: the lessor may offer only rate/2 of them',
    (on) =>
      fc.record({ s: seed, rate: fc.constantFrom(4, 6, 8, 10), extra: fc.integer({ min: 0, max: 100 }), ttl: fc.integer({ min: 2, max: 4 }) }).map(({ s, rate, extra, ttl }) =>
        scripted(setup(on, 'no-revoke-rate-limit', { revokeRatePerSecond: rate }, s), [at(100 * MS, L.grantMany, { count: rate + Math.round((extra / 100) * 2 * rate), ttl, spreadUs: 0 })], (ttl + 6) * S),
      ),
  ),
  'no-expired-lease-retry': family(
    'B3',
    "one member whose raft loop hangs across a lease's expiry for longer than the request timeout: its revoke is skipped and must be retried",
    (on) =>
      fc.record({ s: seed, ttl: fc.integer({ min: 2, max: 4 }), start: fc.integer({ min: 0, max: 100 }), extra: fc.integer({ min: 0, max: 4000 }) }).map(({ s, ttl, start, extra }) => {
        const stallAt = 200 * MS + (start / 100) * (ttl - 1) * S;
        const offer = tickAfter(grantApplied(100 * MS, 1000) + ttl * S);
        const hold = offer + 7500 * MS + extra * MS - stallAt;
        return scripted(
          setup(on, 'no-expired-lease-retry', { members: 1 }, s),
          [at(100 * MS, L.grant, { ttl, via: undefined }), at(stallAt, F.stall, { member: 0, loop: 'raft', forUs: hold })],
          12 * S,
        );
      }),
  ),
  'renew-expired-lease': family(
    'C1',
    "renewals sent to the leader within a few milliseconds of the tick that finds the lease expired, before its revoke applies",
    (on) =>
      fc.record({ s: seed, l: latency, ttl: fc.integer({ min: 2, max: 4 }), t0: fc.integer({ min: 1, max: 4 }), a: fc.integer({ min: -15, max: 15 }), b: fc.integer({ min: -15, max: 15 }) }).map(({ s, l, ttl, t0, a, b }) => {
        const grant = t0 * 100 * MS;
        const tick = tickAfter(grantApplied(grant, l) + ttl * S);
        return scripted(
          setup(on, 'renew-expired-lease', { latencyUs: l }, s),
          [at(grant, L.grant, { ttl, via: 0 }), at(tick + (a * l) / 10, L.keepAliveOnce, { lease: 0, via: 0 }), at(tick + (b * l) / 10, L.keepAliveOnce, { lease: 0, via: 0 })],
          3 * S,
        );
      }),
  ),
  'renew-without-apply-wait': family(
    'C2',
    "a grant answered by a follower while the leader's apply loop is stalled, and a keep-alive sent to the leader",
    (on) =>
      fc.record({ s: seed, l: latency, ttl: fc.integer({ min: 5, max: 10 }), d: fc.integer({ min: 15, max: 45 }), hold: fc.integer({ min: 300, max: 2500 }) }).map(({ s, l, ttl, d, hold }) =>
        scripted(
          setup(on, 'renew-without-apply-wait', { latencyUs: l }, s),
          [
            at(100 * MS, L.grant, { ttl, via: 1 }),
            at(100 * MS, L.keepAlive, { lease: 0, client: 0, via: 0 }),
            at(100 * MS + (d * l) / 10, F.stall, { member: 0, loop: 'apply', forUs: hold * MS }),
          ],
          5 * S,
        ),
      ),
  ),
  'renew-skips-recheck': family(
    'C3',
    'a checkpointed lease renewed while a revoke of it applies: the renew waits for its clearing checkpoint, then refreshes what it looked up',
    (on) =>
      fc.record({ s: seed, l: latency, cpi: fc.integer({ min: 2, max: 3 }), ttl: fc.integer({ min: 10, max: 20 }), later: fc.integer({ min: 300, max: 1300 }), d: fc.integer({ min: -25, max: 5 }) }).map(({ s, l, cpi, ttl, later, d }) => {
        const renew = tickAfter(grantApplied(100 * MS, l) + cpi * S) + later * MS;
        return scripted(
          setup(on, 'renew-skips-recheck', { latencyUs: l, leaseCheckpoint: true, checkpointIntervalUs: cpi * S }, s),
          [at(100 * MS, L.grant, { ttl, via: 0 }), at(renew, L.keepAliveOnce, { lease: 0, via: 0 }), at(renew + (d * l) / 10, L.revoke, { lease: 0, via: 0 })],
          3 * S,
        );
      }),
  ),
  'no-leadership-check-on-revoke': family(
    'C4',
    "the leader's raft loop hangs while a client keeps the lease alive through a follower; the old leader's lessor still expires it",
    (on) =>
      fc.record({ s: seed, l: latency, ttl: fc.integer({ min: 3, max: 8 }), stall: fc.integer({ min: 5, max: 20 }), hold: fc.integer({ min: 3, max: 10 }) }).map(({ s, l, ttl, stall, hold }) =>
        scripted(
          setup(on, 'no-leadership-check-on-revoke', { latencyUs: l }, s),
          [
            at(100 * MS, L.grant, { ttl, via: 2 }),
            at(100 * MS, L.keepAlive, { lease: 0, client: 1, via: 1 }),
            at(stall * 100 * MS, F.stall, { member: 0, loop: 'raft', forUs: (ttl + hold) * S }),
          ],
          10 * S,
        ),
      ),
  ),
  'no-leadership-check-on-renew': family(
    'C4',
    "the leader's raft loop hangs while its client keeps renewing through it; the new leader never sees those renewals",
    (on) =>
      fc.record({ s: seed, l: latency, ttl: fc.integer({ min: 3, max: 8 }), stall: fc.integer({ min: 5, max: 20 }), hold: fc.integer({ min: 3, max: 10 }) }).map(({ s, l, ttl, stall, hold }) =>
        scripted(
          setup(on, 'no-leadership-check-on-renew', { latencyUs: l }, s),
          [
            at(100 * MS, L.grant, { ttl, via: 0 }),
            at(100 * MS, L.keepAlive, { lease: 0, client: 0, via: 0 }),
            at(stall * 100 * MS, F.stall, { member: 0, loop: 'raft', forUs: (ttl + hold) * S }),
          ],
          10 * S,
        ),
      ),
  ),
  'ttl-on-demoted-lessor': family(
    'C5',
    "TimeToLive on the leader waits for its stalled apply loop while leadership moves away; it answers from the demoted lessor",
    (on) =>
      fc.record({ s: seed, l: latency, ttl: fc.integer({ min: 5, max: 20 }), ask: fc.integer({ min: 3, max: 10 }), move: fc.integer({ min: 20, max: 300 }), resume: fc.integer({ min: 350, max: 900 }) }).map(({ s, l, ttl, ask, move, resume }) => {
        const t = S;
        return scripted(
          setup(on, 'ttl-on-demoted-lessor', { latencyUs: l }, s),
          [
            at(100 * MS, L.grant, { ttl, via: 0 }),
            at(t, F.stall, { member: 0, loop: 'apply', forUs: resume * MS }),
            at(t + MS, L.put, { key: 0, lease: undefined, via: 0 }),
            at(t + ask * MS, L.timeToLive, { lease: 0, via: 0 }),
            at(t + move * MS, F.transferLeader, { member: 1 }),
          ],
          3 * S,
        );
      }),
  ),
  'register-expiry-on-followers': family(
    'D1',
    'leases granted on a 3-member cluster: the followers must not queue them for expiry',
    (on) =>
      fc.record({ s: seed, n: fc.integer({ min: 1, max: 4 }), ttl: fc.integer({ min: 5, max: 30 }), move: fc.boolean() }).map(({ s, n, ttl, move }) =>
        scripted(
          setup(on, 'register-expiry-on-followers', {}, s),
          [...Array.from({ length: n }, (_, k) => at(100 * MS + k * 50 * MS, L.grant, { ttl, via: k % 3 })), ...(move ? [at(S, F.transferLeader, { member: 1 })] : [])],
          S,
        ),
      ),
  ),
  'expiry-queue-uses-wall-clock': family(
    'E1',
    "the leader's wall clock jumps back minutes while a lease it never sees renewed runs out",
    (on) =>
      fc.record({ s: seed, ttl: fc.integer({ min: 3, max: 8 }), when: fc.integer({ min: 0, max: 100 }), back: fc.integer({ min: 60, max: 600 }) }).map(({ s, ttl, when, back }) =>
        scripted(
          setup(on, 'expiry-queue-uses-wall-clock', {}, s),
          [at(100 * MS, L.grant, { ttl, via: 0 }), at(200 * MS + (when / 100) * (ttl - 1) * S, F.clockJump, { member: 'leader', jumpUs: -back * S })],
          (ttl + 15) * S,
        ),
      ),
  ),
  'lock-skips-post-wait-check': family(
    'H2',
    "two lock clients; the waiting one pauses past its session TTL, the holder unlocks, then the waiter resumes",
    (on) =>
      fc.record({ s: seed, ttl: fc.integer({ min: 2, max: 4 }), pause: fc.integer({ min: 2000, max: 5000 }), unlock: fc.integer({ min: 0, max: 100 }) }).map(({ s, ttl, pause, unlock }) => {
        const paused = 300 * MS;
        const expired = 200 * MS + ttl * S + 800 * MS;
        const resume = paused + ttl * S + pause * MS;
        return scripted(
          setup(on, 'lock-skips-post-wait-check', {}, s),
          [
            at(100 * MS, K.lock, { client: 0, name: 0, ttl: 10 }),
            at(200 * MS, K.lock, { client: 1, name: 0, ttl }),
            at(paused, F.pauseClient, { client: 1, forUs: resume - paused }),
            at(expired + (unlock / 100) * (resume - 300 * MS - expired), K.unlock, { pick: 0 }),
          ],
          3 * S,
        );
      }),
  ),
  [CHECKPOINTING_OFF]: family(
    'A1',
    'a lease longer than the checkpoint interval, never renewed, and a leader transfer late in its life: without checkpoints the promotion resets it to its full TTL',
    (on) =>
      fc.record({ s: seed, cpi: fc.integer({ min: 3, max: 5 }), f: fc.integer({ min: 0, max: 100 }), g: fc.integer({ min: 0, max: 100 }), to: fc.integer({ min: 1, max: 2 }) }).map(({ s, cpi, f, g, to }) => {
        const ttl = cpi + 3 + Math.round((f / 100) * 3 * cpi);
        const move = 100 * MS + (cpi + 2) * S + (g / 100) * (ttl - cpi - 2.3) * S;
        return scripted(
          setup(false, undefined, { leaseCheckpoint: !on, checkpointIntervalUs: cpi * S }, s),
          [at(100 * MS, L.grant, { ttl, via: 0 }), at(move, F.transferLeader, { member: to })],
          (ttl + 3) * S,
        );
      }),
  ),
};
