/**
 * Targeted run families, one per historical bug switch (and one for A1, whose switch is checkpointing
 * itself): the fault schedule that can trigger the bug, with its timing and sizes left to fast-check.
 * With the switch on, some run of the family violates a property; with it off, none does. Times are
 * computed from the run's own network latency where a fault must land inside a window a few
 * milliseconds wide (between a revoke's append and its commit, say); jitter and fsync are 0 so those
 * windows can be predicted. Catalogue ids (A1…H2) are those of docs/bugs.md.
 */
import fc from 'fast-check';
import { MICROS_PER_MS as MS, MICROS_PER_SECOND as S, type Micros } from '../../clock/time.js';
import type { BugName } from '../../switches/bugs.js';
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

// ---- Who: member, client and lease picks -------------------------------------------------------------

/** Member picks while all three run: n1 is the first leader, n2 and n3 its followers. */
const N1 = 0;
const N2 = 1;
const N3 = 2;
/** A grant with no `via` goes to whichever member leads. */
const VIA_LEADER = undefined;
/** `restart` picks among the crashed members. */
const FIRST_CRASHED = 0;
/** Client picks (c1, c2) and the first lease or lock the run created. */
const C1 = 0;
const C2 = 1;
const FIRST_LEASE = 0;
const FIRST_LOCK = 0;
const FIRST_KEY = 0;

// ---- When: instants and windows ----------------------------------------------------------------------

/** Where a family's first grant goes: n1 has long settled as leader by then. */
const GRANT_AT: Micros = 100 * MS;
/** `n` tenths of a second. */
const tenths = (n: number): Micros => n * 100 * MS;
/** `n` tenths of the one-way latency `l`: aims a step inside a window a few hops wide. */
const latencyTenths = (n: number, l: Micros): Micros => (n * l) / 10;
/** `p` percent, as a fraction, of whatever span it multiplies. */
const percent = (p: number): number => p / 100;

/** The first run-loop tick of n1 at or after `t` (its lessor ticks every 500 ms from boot, at -1 s). */
const tickAfter = (t: Micros): Micros => Math.ceil(t / runLoopPeriodUs) * runLoopPeriodUs;

/** When a grant sent to the leader at `t` applies there: client hop, append round trip. */
const grantApplied = (t: Micros, l: Micros): Micros => t + 3 * l;

/** The tick that finds a lease of `ttl` seconds, granted at `grant` under latency `l`, expired. */
const expiryTick = (grant: Micros, l: Micros, ttl: number): Micros => tickAfter(grantApplied(grant, l) + ttl * S);

/** A TTL from `interval` + 3 s up to 4 × `interval` + 3 s: long enough to need checkpoints. */
const ttlPastInterval = (intervalS: number, p: number): number =>
  intervalS + 3 + Math.round(percent(p) * 3 * intervalS);

// ---- Arbitraries and setup ---------------------------------------------------------------------------

/** Latency from 1 to 2 ms in whole 0.1 ms steps; everything else at etcd's defaults. */
const latency = fc.integer({ min: 10, max: 20 }).map((t) => t * 100);
const seed = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const int = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max });

function setup(on: boolean, bug: BugName | undefined, cluster: Partial<ScenarioCluster>, seedValue: number): RunSetup {
  return {
    profile: 'v3.5',
    seed: seedValue,
    bugs: on && bug !== undefined ? [bug] : [],
    cluster: { ...DEFAULT_SCENARIO_CLUSTER, ...cluster },
  };
}

const family = (catalogue: string, recipe: string, arb: (on: boolean) => fc.Arbitrary<GeneratedRun>): BugFamily => ({
  catalogue,
  recipe,
  arb,
});

// ---- Families that need a builder of their own -------------------------------------------------------

/**
 * C4's two switches: n1's raft loop hangs while a client keeps the lease alive. Only where the grant and
 * the keep-alive go differ: through the followers (the hung leader's lessor still expires the lease) or
 * through n1 (the renewals never reach the new leader).
 */
function leaderStallFamily(
  bug: 'no-leadership-check-on-revoke' | 'no-leadership-check-on-renew',
  recipe: string,
  route: { readonly grantVia: number; readonly client: number; readonly keepAliveVia: number },
): BugFamily {
  return family('C4', recipe, (on) =>
    fc
      .record({ s: seed, l: latency, ttl: int(3, 8), stallTenths: int(5, 20), holdS: int(3, 10) })
      .map(({ s, l, ttl, stallTenths, holdS }) =>
        scripted(
          setup(on, bug, { latencyUs: l }, s),
          [
            at(GRANT_AT, L.grant, { ttl, via: route.grantVia }),
            at(GRANT_AT, L.keepAlive, { lease: FIRST_LEASE, client: route.client, via: route.keepAliveVia }),
            at(tenths(stallTenths), F.stall, { member: N1, loop: 'raft', forUs: (ttl + holdS) * S }),
          ],
          10 * S,
        ),
      ),
  );
}

// ---- The families ------------------------------------------------------------------------------------

export const BUG_FAMILIES: { readonly [F in FamilyName]: BugFamily } = {
  'promote-on-election': family(
    'A2',
    'an unrenewed lease expires on n1, whose revoke reaches the followers; ' +
      'n1 crashes before it commits; the new leader applies it after promoting',
    (on) =>
      fc
        .record({
          s: seed,
          l: latency,
          ttl: int(2, 4),
          grantTenths: int(1, 4),
          crashLatencyTenths: int(2, 25),
          probeMs: int(0, 1200),
        })
        .map(({ s, l, ttl, grantTenths, crashLatencyTenths, probeMs }) => {
          const grant = tenths(grantTenths);
          // After the expiry tick: the revoke's append is on its way to the followers, its commit is not back.
          const crash = expiryTick(grant, l, ttl) + latencyTenths(crashLatencyTenths, l);
          // n2 and n3 elect a leader within about a second; the probe lands after that.
          const electedBy = crash + S;
          return scripted(
            setup(on, 'promote-on-election', { latencyUs: l }, s),
            [
              at(grant, L.grant, { ttl, via: N1 }),
              at(crash, F.crash, { member: N1 }),
              at(electedBy + probeMs * MS, L.keepAliveOnce, { lease: FIRST_LEASE, via: N2 }),
              at(crash + 4 * S, F.restart, { member: FIRST_CRASHED }),
            ],
            5 * S,
          );
        }),
  ),
  'no-checkpoint-schedule-on-promote': family(
    'A4',
    'leases longer than the checkpoint interval, never renewed, and leader transfers: ' +
      'the new leader must keep checkpointing them',
    (on) =>
      fc
        .record({
          s: seed,
          intervalS: int(3, 5),
          ttlPercents: fc.array(int(0, 100), { minLength: 1, maxLength: 3 }),
          moves: fc.array(fc.tuple(int(0, 1000), fc.nat({ max: 2 })), { minLength: 1, maxLength: 3 }),
          persist: fc.boolean(),
        })
        .map(({ s, intervalS, ttlPercents, moves, persist }) => {
          const checkpointIntervalUs = intervalS * S;
          const cluster = { leaseCheckpoint: true, leaseCheckpointPersist: persist, checkpointIntervalUs };
          // Transfers start after the first checkpoint and spread over the next two intervals (per mille).
          const firstCheckpointDone = (intervalS + 1) * S;
          const moveSpan = 2 * intervalS * MS;
          return scripted(
            setup(on, 'no-checkpoint-schedule-on-promote', cluster, s),
            [
              ...ttlPercents.map((p, k) =>
                at(GRANT_AT + k * 10 * MS, L.grant, { ttl: ttlPastInterval(intervalS, p), via: VIA_LEADER }),
              ),
              ...moves.map(([perMille, to]) =>
                at(firstCheckpointDone + perMille * moveSpan, F.transferLeader, { member: to }),
              ),
            ],
            (intervalS + 3) * S,
          );
        }),
  ),
  'checkpoints-not-persisted': family(
    'A5',
    'checkpoint and persist on; after a checkpoint, members restart and one of them is made leader ' +
      'before the next checkpoint',
    (on) =>
      fc
        .record({ s: seed, intervalS: int(2, 3), ttl: int(20, 40), victim: fc.nat({ max: 2 }), leadTenths: int(3, 15) })
        .map(({ s, intervalS, ttl, victim, leadTenths }) => {
          const cluster = { leaseCheckpoint: true, leaseCheckpointPersist: true, checkpointIntervalUs: intervalS * S };
          const afterFirstCheckpoint = (intervalS + 2) * S;
          const restarted = afterFirstCheckpoint + 300 * MS;
          return scripted(
            setup(on, 'checkpoints-not-persisted', cluster, s),
            [
              at(GRANT_AT, L.grant, { ttl, via: VIA_LEADER }),
              at(afterFirstCheckpoint, F.crash, { member: victim }),
              at(restarted, F.restart, { member: FIRST_CRASHED }),
              // All three run again, so index `victim` names the member that restarted.
              at(restarted + tenths(leadTenths), F.transferLeader, { member: victim }),
            ],
            3 * S,
          );
        }),
  ),
  'no-promote-spreading': family(
    'B1',
    'more than twice the revoke rate of leases with the same TTL, then a leader change: ' +
      'the promotion must spread their deadlines',
    (on) =>
      fc
        .record({
          s: seed,
          rate: fc.constantFrom(8, 12, 16, 20),
          extraPercent: int(1, 100),
          ttl: int(20, 30),
          moveMs: int(0, 2000),
        })
        .map(({ s, rate, extraPercent, ttl, moveMs }) => {
          const count = 2 * rate + 1 + Math.round(percent(extraPercent) * rate);
          const moveFrom = 1500 * MS;
          return scripted(
            setup(on, 'no-promote-spreading', { revokeRatePerSecond: rate }, s),
            [
              at(GRANT_AT, L.grantMany, { count, ttl, spreadUs: 0 }),
              at(moveFrom + moveMs * MS, F.transferLeader, { member: N2 }),
            ],
            2 * S,
          );
        }),
  ),
  'no-revoke-rate-limit': family(
    'B1',
    'more leases than half the revoke rate expire in the same tick: the lessor may offer only rate/2 of them',
    (on) =>
      fc
        .record({ s: seed, rate: fc.constantFrom(4, 6, 8, 10), extraPercent: int(0, 100), ttl: int(2, 4) })
        .map(({ s, rate, extraPercent, ttl }) => {
          const count = rate + Math.round(percent(extraPercent) * 2 * rate);
          return scripted(
            setup(on, 'no-revoke-rate-limit', { revokeRatePerSecond: rate }, s),
            [at(GRANT_AT, L.grantMany, { count, ttl, spreadUs: 0 })],
            (ttl + 6) * S,
          );
        }),
  ),
  'no-expired-lease-retry': family(
    'B3',
    "one member whose raft loop hangs across a lease's expiry for longer than the request timeout: " +
      'its revoke is skipped and must be retried',
    (on) =>
      fc
        .record({ s: seed, ttl: int(2, 4), startPercent: int(0, 100), extraMs: int(0, 4000) })
        .map(({ s, ttl, startPercent, extraMs }) => {
          // The hang starts somewhere in the lease's life and lasts past the offer's request timeout (7 s).
          const stallAt = 200 * MS + percent(startPercent) * (ttl - 1) * S;
          const offer = expiryTick(GRANT_AT, DEFAULT_SCENARIO_CLUSTER.latencyUs, ttl);
          const stallUntil = offer + 7500 * MS + extraMs * MS;
          return scripted(
            setup(on, 'no-expired-lease-retry', { members: 1 }, s),
            [
              at(GRANT_AT, L.grant, { ttl, via: VIA_LEADER }),
              at(stallAt, F.stall, { member: N1, loop: 'raft', forUs: stallUntil - stallAt }),
            ],
            12 * S,
          );
        }),
  ),
  'renew-expired-lease': family(
    'C1',
    'renewals sent to the leader within a few milliseconds of the tick that finds the lease expired, ' +
      'before its revoke applies',
    (on) =>
      fc
        .record({
          s: seed,
          l: latency,
          ttl: int(2, 4),
          grantTenths: int(1, 4),
          first: int(-15, 15),
          second: int(-15, 15),
        })
        .map(({ s, l, ttl, grantTenths, first, second }) => {
          const grant = tenths(grantTenths);
          const tick = expiryTick(grant, l, ttl);
          return scripted(
            setup(on, 'renew-expired-lease', { latencyUs: l }, s),
            [
              at(grant, L.grant, { ttl, via: N1 }),
              // Each renewal within ±1.5 latencies of the tick.
              at(tick + latencyTenths(first, l), L.keepAliveOnce, { lease: FIRST_LEASE, via: N1 }),
              at(tick + latencyTenths(second, l), L.keepAliveOnce, { lease: FIRST_LEASE, via: N1 }),
            ],
            3 * S,
          );
        }),
  ),
  'renew-without-apply-wait': family(
    'C2',
    "a grant answered by a follower while the leader's apply loop is stalled, and a keep-alive sent to the leader",
    (on) =>
      fc
        .record({ s: seed, l: latency, ttl: int(5, 10), stallLatencyTenths: int(15, 45), holdMs: int(300, 2500) })
        .map(({ s, l, ttl, stallLatencyTenths, holdMs }) =>
          scripted(
            setup(on, 'renew-without-apply-wait', { latencyUs: l }, s),
            [
              at(GRANT_AT, L.grant, { ttl, via: N2 }),
              at(GRANT_AT, L.keepAlive, { lease: FIRST_LEASE, client: C1, via: N1 }),
              // n1's apply loop stops 1.5 to 4.5 latencies after the grant is sent to n2.
              at(GRANT_AT + latencyTenths(stallLatencyTenths, l), F.stall, {
                member: N1,
                loop: 'apply',
                forUs: holdMs * MS,
              }),
            ],
            5 * S,
          ),
        ),
  ),
  'renew-skips-recheck': family(
    'C3',
    'a checkpointed lease renewed while a revoke of it applies: ' +
      'the renew waits for its clearing checkpoint, then refreshes what it looked up',
    (on) =>
      fc
        .record({
          s: seed,
          l: latency,
          intervalS: int(2, 3),
          ttl: int(10, 20),
          laterMs: int(300, 1300),
          revokeLatencyTenths: int(-25, 5),
        })
        .map(({ s, l, intervalS, ttl, laterMs, revokeLatencyTenths }) => {
          const cluster = { latencyUs: l, leaseCheckpoint: true, checkpointIntervalUs: intervalS * S };
          // Some time after the first checkpoint of the lease; the revoke goes just before or after the renew.
          const renew = tickAfter(grantApplied(GRANT_AT, l) + intervalS * S) + laterMs * MS;
          return scripted(
            setup(on, 'renew-skips-recheck', cluster, s),
            [
              at(GRANT_AT, L.grant, { ttl, via: N1 }),
              at(renew, L.keepAliveOnce, { lease: FIRST_LEASE, via: N1 }),
              at(renew + latencyTenths(revokeLatencyTenths, l), L.revoke, { lease: FIRST_LEASE, via: N1 }),
            ],
            3 * S,
          );
        }),
  ),
  'no-leadership-check-on-revoke': leaderStallFamily(
    'no-leadership-check-on-revoke',
    "the leader's raft loop hangs while a client keeps the lease alive through a follower; " +
      "the old leader's lessor still expires it",
    { grantVia: N3, client: C2, keepAliveVia: N2 },
  ),
  'no-leadership-check-on-renew': leaderStallFamily(
    'no-leadership-check-on-renew',
    "the leader's raft loop hangs while its client keeps renewing through it; the new leader never sees those renewals",
    { grantVia: N1, client: C1, keepAliveVia: N1 },
  ),
  'ttl-on-demoted-lessor': family(
    'C5',
    'TimeToLive on the leader waits for its stalled apply loop while leadership moves away; ' +
      'it answers from the demoted lessor',
    (on) =>
      fc
        .record({
          s: seed,
          l: latency,
          ttl: int(5, 20),
          askMs: int(3, 10),
          moveMs: int(20, 300),
          resumeMs: int(350, 900),
        })
        .map(({ s, l, ttl, askMs, moveMs, resumeMs }) => {
          const stallAt = S;
          return scripted(
            setup(on, 'ttl-on-demoted-lessor', { latencyUs: l }, s),
            [
              at(GRANT_AT, L.grant, { ttl, via: N1 }),
              at(stallAt, F.stall, { member: N1, loop: 'apply', forUs: resumeMs * MS }),
              // A put that commits but cannot apply: the TimeToLive then waits for the apply loop.
              at(stallAt + MS, L.put, { key: FIRST_KEY, lease: undefined, via: N1 }),
              at(stallAt + askMs * MS, L.timeToLive, { lease: FIRST_LEASE, via: N1 }),
              at(stallAt + moveMs * MS, F.transferLeader, { member: N2 }),
            ],
            3 * S,
          );
        }),
  ),
  'register-expiry-on-followers': family(
    'D1',
    'leases granted on a 3-member cluster: the followers must not queue them for expiry',
    (on) =>
      fc.record({ s: seed, grants: int(1, 4), ttl: int(5, 30), move: fc.boolean() }).map(({ s, grants, ttl, move }) =>
        scripted(
          setup(on, 'register-expiry-on-followers', {}, s),
          [
            // One grant per member in turn, 50 ms apart.
            ...Array.from({ length: grants }, (_, k) => at(GRANT_AT + k * 50 * MS, L.grant, { ttl, via: k % 3 })),
            ...(move ? [at(S, F.transferLeader, { member: N2 })] : []),
          ],
          S,
        ),
      ),
  ),
  'expiry-queue-uses-wall-clock': family(
    'E1',
    "the leader's wall clock jumps back minutes while a lease it never sees renewed runs out",
    (on) =>
      fc
        .record({ s: seed, ttl: int(3, 8), whenPercent: int(0, 100), backS: int(60, 600) })
        .map(({ s, ttl, whenPercent, backS }) =>
          scripted(
            setup(on, 'expiry-queue-uses-wall-clock', {}, s),
            [
              at(GRANT_AT, L.grant, { ttl, via: N1 }),
              // Somewhere in the lease's life, before it runs out.
              at(200 * MS + percent(whenPercent) * (ttl - 1) * S, F.clockJump, {
                member: 'leader',
                jumpUs: -backS * S,
              }),
            ],
            (ttl + 15) * S,
          ),
        ),
  ),
  'lock-skips-post-wait-check': family(
    'H2',
    'two lock clients; the waiting one pauses past its session TTL, the holder unlocks, then the waiter resumes',
    (on) =>
      fc
        .record({ s: seed, ttl: int(2, 4), pauseMs: int(2000, 5000), unlockPercent: int(0, 100) })
        .map(({ s, ttl, pauseMs, unlockPercent }) => {
          const waiterLocks = 200 * MS;
          const paused = 300 * MS;
          // By then the waiter's session lease has expired and been revoked (its TTL after locking, plus 0.8 s).
          const sessionGone = waiterLocks + ttl * S + 800 * MS;
          const resumed = paused + ttl * S + pauseMs * MS;
          return scripted(
            setup(on, 'lock-skips-post-wait-check', {}, s),
            [
              at(GRANT_AT, K.lock, { client: C1, name: FIRST_LOCK, ttl: 10 }),
              at(waiterLocks, K.lock, { client: C2, name: FIRST_LOCK, ttl }),
              at(paused, F.pauseClient, { client: C2, forUs: resumed - paused }),
              // The holder unlocks after the waiter's session is gone and before the waiter resumes.
              at(sessionGone + percent(unlockPercent) * (resumed - paused - sessionGone), K.unlock, {
                pick: FIRST_LOCK,
              }),
            ],
            3 * S,
          );
        }),
  ),
  [CHECKPOINTING_OFF]: family(
    'A1',
    'a lease longer than the checkpoint interval, never renewed, and a leader transfer late in its life: ' +
      'without checkpoints the promotion resets it to its full TTL',
    (on) =>
      fc
        .record({ s: seed, intervalS: int(3, 5), ttlPercent: int(0, 100), movePercent: int(0, 100), to: int(1, 2) })
        .map(({ s, intervalS, ttlPercent, movePercent, to }) => {
          const ttl = ttlPastInterval(intervalS, ttlPercent);
          // After the first checkpoint, and at least 0.3 s before the lease would run out.
          const afterFirstCheckpoint = GRANT_AT + (intervalS + 2) * S;
          const move = afterFirstCheckpoint + percent(movePercent) * (ttl - intervalS - 2.3) * S;
          return scripted(
            setup(false, undefined, { leaseCheckpoint: !on, checkpointIntervalUs: intervalS * S }, s),
            [at(GRANT_AT, L.grant, { ttl, via: N1 }), at(move, F.transferLeader, { member: to })],
            (ttl + 3) * S,
          );
        }),
  ),
};
