/**
 * What an onlooker (the playground's picture of the cluster) may watch beyond the trace: every message
 * put on the wire, every pass of each member's lessor run loop and each non-leader's election clock. All
 * are far too frequent to trace; this side channel only reads, so a run traces the same bytes with or
 * without an observer.
 */
import type { Micros } from '../clock/time.js';
import type { WireObserver } from './network/network.js';

export interface ClusterObserver extends WireObserver {
  /** A member's lessor ran its run loop at `t` (every 500 ms; `primary`: it could revoke). */
  runLoopPass(member: string, t: Micros, primary: boolean): void;
  /**
   * A follower's or candidate's raft election clock at `t`, after a tick or a reset: `elapsedTicks` of
   * the `timeoutTicks` it drew at random (it campaigns when they meet).
   */
  electionClock?(member: string, t: Micros, elapsedTicks: number, timeoutTicks: number): void;
}
