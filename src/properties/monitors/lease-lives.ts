/**
 * Each lease's life as the clients saw it, derived once per run: its grant, what was acknowledged, and
 * its first revoke. "Acknowledged" is precise: a grant counts when a client received its response
 * (`client-grant`, `ctl-granted`), from the first member that applied it; a renewal counts when a member
 * renewed it (`lease-renew`) and a client then received a positive TTL for it (`client-keepalive-recv`,
 * `client-keepalive-once-recv`) before any later renewal of it. Its deadline is the renewing member's
 * new expiry, which is the earliest time etcd promises not to revoke it.
 */
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { expiryField, numField, type RunView } from './run-view.js';

export interface LeaseLife {
  readonly id: bigint;
  /** Granted TTL, seconds (after the minimum clamp). */
  ttl: number;
  /** First apply of the grant on any member. */
  grantUs: Micros | undefined;
  grantAcked: boolean;
  /** The latest acknowledged deadline, and the event index that set it. */
  ackDeadlineUs: Micros;
  ackIndex: number;
  /** Server time of the last acknowledged grant or renewal. */
  lastAckUs: Micros;
  /** Index of the first `lease-revoke` (on any member). */
  revokeIndex: number | undefined;
  /** The lessor offered it as expired (a `lease-expired` event) before it was revoked. */
  offered: boolean;
}

const POSITIVE_RECV = new Set(['client-keepalive-recv', 'client-keepalive-once-recv']);

const cache = new WeakMap<RunView, Map<bigint, LeaseLife>>();

/** Every granted lease's life, computed once per run. */
export function leaseLives(view: RunView): ReadonlyMap<bigint, Readonly<LeaseLife>> {
  let lives = cache.get(view);
  if (lives === undefined) {
    lives = computeLives(view);
    cache.set(view, lives);
  }
  return lives;
}

function computeLives(view: RunView): Map<bigint, LeaseLife> {
  const out = new Map<bigint, LeaseLife>();
  for (const id of view.leases()) {
    const life: LeaseLife = {
      id,
      ttl: 0,
      grantUs: undefined,
      grantAcked: false,
      ackDeadlineUs: -Infinity,
      ackIndex: -1,
      lastAckUs: -Infinity,
      revokeIndex: undefined,
      offered: false,
    };
    let pending: { t: Micros; deadline: Micros; index: number } | undefined;
    for (const i of view.ofLease(id)) {
      const e = view.at(i);
      switch (e.kind) {
        case 'lease-grant':
          if (life.grantUs === undefined) {
            life.grantUs = e.t;
            life.ttl = numField(e, 'ttl') ?? 0;
          }
          break;
        case 'client-grant':
        case 'ctl-granted':
          if (!life.grantAcked && life.grantUs !== undefined) {
            life.grantAcked = true;
            ack(life, life.grantUs, life.grantUs + life.ttl * MICROS_PER_SECOND, i);
          }
          break;
        case 'lease-renew':
          if (life.revokeIndex === undefined) {
            pending = {
              t: e.t,
              deadline: expiryField(e) ?? e.t + (numField(e, 'ttl') ?? life.ttl) * MICROS_PER_SECOND,
              index: i,
            };
          }
          break;
        case 'lease-expired':
          if (life.revokeIndex === undefined) life.offered = true;
          break;
        case 'lease-revoke':
          life.revokeIndex ??= i;
          break;
        default:
          if (POSITIVE_RECV.has(e.kind) && (numField(e, 'ttl') ?? 0) > 0 && pending !== undefined) {
            ack(life, pending.t, pending.deadline, pending.index);
            pending = undefined;
          }
      }
    }
    if (life.grantUs !== undefined) out.set(id, life);
  }
  return out;
}

function ack(life: LeaseLife, serverUs: Micros, deadline: Micros, index: number): void {
  life.lastAckUs = Math.max(life.lastAckUs, serverUs);
  if (deadline > life.ackDeadlineUs) {
    life.ackDeadlineUs = deadline;
    life.ackIndex = index;
  }
}
