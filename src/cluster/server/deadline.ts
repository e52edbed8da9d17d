import type { Process } from '../../clock/process.js';
import type { Timer } from '../../clock/scheduler.js';
import type { Micros } from '../../clock/time.js';

/**
 * A context with a timeout: whichever comes first, `settle()` by the operation or the timer, wins; the
 * other becomes a no-op. Timers live on the member's process, so a pause delays them and a crash drops
 * them with everything else.
 */
export class Deadline {
  private done = false;
  private readonly timer: Timer;

  constructor(proc: Process, timeout: Micros, onExpire: () => void) {
    this.timer = proc.after(timeout, () => {
      if (this.done) return;
      this.done = true;
      onExpire();
    });
  }

  /** True while neither the operation nor the timer has finished. */
  get open(): boolean {
    return !this.done;
  }

  /** Claims the outcome for the operation; false if the deadline already fired. */
  settle(): boolean {
    if (this.done) return false;
    this.done = true;
    this.timer.cancel();
    return true;
  }
}
