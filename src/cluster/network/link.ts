import type { Micros } from '../../clock/time.js';

/**
 * One direction of a connection between two endpoints. It remembers when its last message arrives so a
 * later message never overtakes it: TCP links are FIFO whatever the jitter.
 */
export class Link {
  /** Arrival time of the last message sent on this link. */
  lastArrival: Micros = Number.NEGATIVE_INFINITY;

  constructor(public latencyUs: Micros) {}

  /** The arrival time of a message sent at `now` with `jitter` µs of extra delay; reserves that slot. */
  arrival(now: Micros, jitter: Micros): Micros {
    const t = Math.max(now + this.latencyUs + jitter, this.lastArrival);
    this.lastArrival = t;
    return t;
  }
}
