import type { QueuedEvent } from './queued-event.js';
import type { HeapItem } from './time-heap.js';
import type { Micros } from './time.js';

/**
 * The events set with one delay. Virtual time never goes back, so they come due in the order they were
 * set: a FIFO holds them and only the lane itself sits in the scheduler's heap, under its front event's
 * own (time, seq), so the run order is exactly the heap's. A cancelled event is only marked (`waiting`
 * false) and skipped when it reaches the front. A burst of messages or a crowd of request deadlines,
 * most cancelled milliseconds later, thus costs one heap entry, not one each.
 */
export class TimerLane implements HeapItem {
  /** Due time and sequence of the front event while the lane is in the heap. */
  time: Micros = 0;
  seq = 0;
  index = -1;
  private queue: QueuedEvent[] = [];
  private head = 0;

  add(e: QueuedEvent): void {
    this.queue.push(e);
  }

  /** Drops cancelled events from the front; returns the first waiting one. */
  front(): QueuedEvent | undefined {
    const q = this.queue;
    while (this.head < q.length) {
      const e = q[this.head]!;
      if (e.waiting) return e;
      this.head++;
    }
    this.compact();
    return undefined;
  }

  /** Takes the front event, which `front()` has just returned, off the lane. */
  shift(): QueuedEvent {
    const e = this.queue[this.head++]!;
    this.compact();
    return e;
  }

  private compact(): void {
    const q = this.queue;
    if (this.head === q.length) {
      q.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= q.length) {
      this.queue = q.slice(this.head);
      this.head = 0;
    }
  }
}
