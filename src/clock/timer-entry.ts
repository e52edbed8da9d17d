import type { Process, ProcessTask } from './process.js';
import { QueuedEvent } from './queued-event.js';
import type { Scheduler, Timer } from './scheduler.js';
import type { Micros } from './time.js';

/**
 * A timer on the scheduler's queue, the one shape for both kinds: a bare timer (`Scheduler.at/after`) runs
 * its callback when due; a process's timer (`Process.after/timer`) fires through
 * `Process.timerDue` for the incarnation that set it, so the pause and death rules apply. `arm` sets it
 * again once it has fired, so a periodic timer is one object for its whole life.
 */
export class TimerEntry extends QueuedEvent implements Timer, ProcessTask {
  cancelled = false;
  constructor(
    private readonly proc: Process | undefined,
    private readonly inc: number,
    private readonly fn: () => void,
    private readonly sched: Scheduler,
  ) {
    super();
  }
  fire(): void {
    const p = this.proc;
    if (p === undefined) this.fn();
    else p.timerDue(this.inc, this);
  }
  run(): void {
    this.fn();
  }
  cancel(): void {
    this.cancelled = true;
    this.sched.unpost(this);
  }
  /**
   * Sets the timer to fire `delay` from now, in the order a new `after` would. Only while it is not set
   * and was never cancelled: a scheduler lane may still hold a cancelled timer's slot, which must stay dead.
   */
  arm(delay: Micros): void {
    if (this.waiting || this.cancelled) throw new Error('timer: arm on a timer that is set or cancelled');
    this.sched.postAfter(delay, this);
  }
}
