/**
 * What an onlooker (the playground's picture of the cluster) may watch beyond the trace: every message
 * put on the wire and every pass of each member's lessor run loop. Both are far too frequent to trace;
 * this side channel only reads, so a run traces the same bytes with or without an observer.
 */
import type { Micros } from '../clock/time.js';
import type { WireObserver } from './network/network.js';

export interface ClusterObserver extends WireObserver {
  /** A member's lessor ran its run loop at `t` (every 500 ms; `primary`: it could revoke). */
  runLoopPass(member: string, t: Micros, primary: boolean): void;
}
