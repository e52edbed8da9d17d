import type { Micros } from '../../clock/time.js';
import { runLoopPeriodUs } from '../../lessor/config.js';

/** etcd's maxPendingRevokes: LeaseRevoke proposals in flight per expired-lease batch. */
export const REVOKES_IN_FLIGHT = 16;

export interface DrainParams {
  /** Leases due no later than the one in question (itself included). */
  readonly due: number;
  readonly rate: number;
  readonly commitLatencyUs: Micros;
  readonly runLoopPeriodUs?: Micros;
}

/**
 * How long after its deadline a lease is revoked on a stable leader when `due` leases are due by then:
 * the run loop offers rate/2 per iteration, earliest deadline first, so it goes out in iteration
 * ⌈due/(rate/2)⌉ (the first at most one period after the deadline); its batch is proposed 16 at a time,
 * one commit latency per round, so it applies within ⌈min(due, rate/2)/16⌉ commit latencies.
 */
export function drainBound(p: DrainParams): Micros {
  const perTick = Math.trunc(p.rate / 2);
  const period = p.runLoopPeriodUs ?? runLoopPeriodUs;
  return (
    Math.ceil(p.due / perTick) * period + Math.ceil(Math.min(p.due, perTick) / REVOKES_IN_FLIGHT) * p.commitLatencyUs
  );
}
