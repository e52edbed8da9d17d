/**
 * Each lease's life as the clients saw it, derived once per run: its grant, what was acknowledged, and
 * its first revoke. "Acknowledged" is precise: a grant counts when a client received its response
 * (`client-grant`, `ctl-granted`), from the first member that applied it; a renewal counts when a member
 * renewed it (`lease-renew`) and a client then received a positive TTL for it (`client-keepalive-recv`,
 * `client-keepalive-once-recv`) before any later renewal of it. Its deadline is the renewing member's
 * new expiry, which is the earliest time etcd promises not to revoke it.
 */
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { type TraceEvent, expiryOf } from '../../trace/trace.js';
import type { RunView } from './run-view.js';

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

/** Every granted lease's life, built by the run view's one pass over the trace. */
export function leaseLives(view: RunView): ReadonlyMap<bigint, Readonly<LeaseLife>> {
  return view.lives;
}

/** Follows one lease through its events, fed in trace order by the run view's pass. */
export class LeaseLifeTracker {
  readonly life: LeaseLife;
  private pending: { t: Micros; deadline: Micros; index: number } | undefined;

  constructor(id: bigint) {
    this.life = {
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
  }

  add(e: TraceEvent, i: number): void {
    const life = this.life;
    switch (e.kind) {
      case 'lease-grant':
        if (life.grantUs === undefined) {
          life.grantUs = e.t;
          life.ttl = e.fields.ttl;
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
          this.pending = {
            t: e.t,
            deadline: expiryOf(e) ?? e.t + e.fields.ttl * MICROS_PER_SECOND,
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
      case 'client-keepalive-recv':
      case 'client-keepalive-once-recv': {
        const pending = this.pending;
        if (e.fields.ttl > 0 && pending !== undefined) {
          ack(life, pending.t, pending.deadline, pending.index);
          this.pending = undefined;
        }
      }
    }
  }
}

function ack(life: LeaseLife, serverUs: Micros, deadline: Micros, index: number): void {
  life.lastAckUs = Math.max(life.lastAckUs, serverUs);
  if (deadline > life.ackDeadlineUs) {
    life.ackDeadlineUs = deadline;
    life.ackIndex = index;
  }
}
