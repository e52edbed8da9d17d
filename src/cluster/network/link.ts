import type { Scheduler } from '../../clock/scheduler.js';
import type { Micros } from '../../clock/time.js';
import type { TimerLane } from '../../clock/timer-lane.js';

/**
 * One direction of a connection between two endpoints. It remembers when its last message arrives so a
 * later message never overtakes it: TCP links are FIFO whatever the jitter.
 */
export class Link {
  /** Arrival time of the last message sent on this link. */
  lastArrival: Micros = Number.NEGATIVE_INFINITY;

  /** The scheduler's lane of the latency, kept so a packet is queued without a lane lookup. */
  private lane: TimerLane | undefined;

  constructor(public latencyUs: Micros) {}

  /** The lane a packet that arrives after exactly the latency waits in. */
  laneIn(sched: Scheduler): TimerLane {
    let l = this.lane;
    if (l === undefined || l.delay !== this.latencyUs) {
      l = sched.laneOf(this.latencyUs);
      this.lane = l;
    }
    return l;
  }

  /** The arrival time of a message sent at `now` with `jitter` µs of extra delay; reserves that slot. */
  arrival(now: Micros, jitter: Micros): Micros {
    const t = Math.max(now + this.latencyUs + jitter, this.lastArrival);
    this.lastArrival = t;
    return t;
  }
}
