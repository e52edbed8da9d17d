/**
 * How far apart the simulation's and real etcd's times for the same event may be and still count as the
 * same behaviour. The simulation is exact; real etcd adds delays the model deliberately leaves out, so
 * each bound below is the sum of those delays for that kind of event, with margin, printed with every
 * diff so nobody has to guess what "agrees" meant.
 */
import type { Micros } from '../clock/time.js';
import type { DeleteCause, ObservedKind } from './observed.js';

export interface Tolerance {
  readonly us: Micros;
  readonly why: string;
}

/**
 * A request's answer (grant, put, revoke, TimeToLive, keep-alive-once, a deletion by request): a
 * loopback round trip, a raft commit with a WAL fsync on a real disk and Go/Node scheduling; the
 * simulation charges 1 ms a hop. Usually 5-60 ms here, but on this 2-core VM grants answered 0.3-0.4 s
 * late while a fresh cluster absorbed 1250 grants/s next to three etcd processes (the revoke storm).
 * 500 ms covers that tail and still catches a step replayed at the wrong time (steps are seconds apart).
 */
export const REQUEST: Tolerance = {
  us: 500_000,
  why: 'loopback round trip + raft commit with fsync + scheduling (0.4 s tail under load)',
};

/**
 * A keep-alive renewal as the client receives it: etcdctl is a fresh process, so its stream opens
 * 50–200 ms after the step (Go start-up, dial) and every later renewal keeps that offset; clientv3's
 * 500 ms send loop can then round a renewal to the next pass. 400 ms = start-up offset + margin, under
 * one send-loop period plus start-up.
 */
export const RENEW: Tolerance = {
  us: 400_000,
  why: 'etcdctl start-up offset (50–200 ms) + one 500 ms send-loop rounding at worst',
};

/**
 * A deletion caused by a lease expiring: the leader's lessor finds it on its next run-loop pass, every
 * 500 ms plus the pass's own work, on a phase unrelated to the simulation's; the revoke then commits
 * through raft; and the expiry itself inherits the real renewal's start-up offset (≤ 200 ms). 0–500 ms
 * of run-loop phase + commit + that offset: ±600 ms, which is why expiry-driven times are compared no
 * tighter than this.
 */
export const EXPIRY: Tolerance = {
  us: 600_000,
  why: 'lessor run-loop phase (0–500 ms) + revoke commit + renewal offset',
};

/**
 * A grant of a grant-many storm: the same request, but answered from a queue of a thousand others while
 * three etcd processes share two cores with the driver. Measured here: 0.3-0.63 s late at 1250 grants/s
 * (the simulation answers each in 4 ms). It says how fast this host serves a storm, not how the lessor
 * behaves, so it gets 1 s.
 */
export const BULK_GRANT: Tolerance = {
  us: 1_000_000,
  why: 'a grant queued behind a thousand others on a 2-core host (0.63 s seen)',
};

/** TimeToLive readings are whole seconds truncated toward zero: a sub-second offset can flip one unit. */
export const TTL_VALUE_SLACK_SECONDS = 1;

export function toleranceFor(kind: ObservedKind, cause: DeleteCause | undefined, bulk = false): Tolerance {
  if (kind === 'renew') return RENEW;
  if (kind === 'grant' && bulk) return BULK_GRANT;
  if (kind === 'delete' && cause === 'expiry') return EXPIRY;
  return REQUEST;
}

export const ALL_TOLERANCES: ReadonlyArray<[string, Tolerance]> = [
  ['request answers', REQUEST],
  ['keep-alive renewals', RENEW],
  ['expiry-driven deletions', EXPIRY],
  ['grant-many grants', BULK_GRANT],
];
