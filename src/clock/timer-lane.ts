import type { HeapItem } from './time-heap.js';
import type { Micros } from './time.js';
import type { Timer } from './scheduler.js';

/** One timer of a lane. Its `seq` is taken from the scheduler's heap when it is set, as `at` would. */
export class LaneTimer implements Timer {
  cancelled = false;
  /** Dropped when the timer fires or is cancelled, so a dead timer keeps nothing alive. */
  fn: (() => void) | undefined;

  constructor(
    readonly at: Micros,
    readonly seq: number,
    fn: () => void,
    private readonly lane: TimerLane,
  ) {
    this.fn = fn;
  }

  cancel(): void {
    this.cancelled = true;
    if (this.fn === undefined) return;
    this.fn = undefined;
    this.lane.live--;
  }
}

/**
 * Timers that all share one delay (request timeouts): they come due in the order they were set, so a
 * FIFO holds them and only the front one sits in the scheduler's heap, under that timer's own (time,
 * seq), so the run order is exactly the heap's. Cancelling only marks the timer; the scheduler skips
 * cancelled fronts when the lane reaches the top of its heap, which is why most request deadlines,
 * cancelled milliseconds after they are set, cost the heap nothing.
 */
export class TimerLane implements HeapItem {
  /** Due time and sequence of the front timer while the lane is in the heap. */
  time: Micros = 0;
  seq = 0;
  index = -1;
  /** Timers set and neither fired nor cancelled. */
  live = 0;
  private readonly queue: LaneTimer[] = [];
  private head = 0;

  constructor(readonly delay: Micros) {}

  add(t: LaneTimer): void {
    this.queue.push(t);
    this.live++;
  }

  /** Drops cancelled timers from the front; returns the first pending one. */
  front(): LaneTimer | undefined {
    const q = this.queue;
    while (this.head < q.length) {
      const t = q[this.head]!;
      if (t.fn !== undefined) return t;
      this.head++;
    }
    this.compact();
    return undefined;
  }

  /** Takes the front timer, which `front()` has just returned, off the lane. */
  shift(): LaneTimer {
    const t = this.queue[this.head++]!;
    this.live--;
    this.compact();
    return t;
  }

  private compact(): void {
    const q = this.queue;
    if (this.head === q.length) {
      q.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= q.length) {
      q.splice(0, this.head);
      this.head = 0;
    }
  }
}
