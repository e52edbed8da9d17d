import type { QueuedEvent } from './queued-event.js';
import type { HeapItem } from './time-heap.js';
import type { Micros } from './time.js';

/**
 * The events set with one delay. Virtual time never goes back, so they come due in the order they were
 * set: a FIFO holds them and only the lane itself sits in the scheduler's heap, under its front event's
 * own (time, seq), so the run order is exactly the heap's. A cancelled event is only marked (`waiting`
 * false) and skipped when it reaches the front. A burst of messages or a crowd of request deadlines,
 * most cancelled milliseconds later, thus costs one heap entry, not one each.
 *
 * The FIFO is a ring that only grows: a lane empties and fills again every few events (the raft tick's
 * lane holds one or two), and a ring does that without reallocating.
 */
export class TimerLane implements HeapItem {
  constructor(readonly delay: Micros) {}

  /** Due time and sequence of the front event while the lane is in the heap. */
  time: Micros = 0;
  seq = 0;
  index = -1;
  /**
   * Capacity is a power of two; slots outside [head, head + size) hold undefined. It starts small: many
   * lanes (a delay computed from a deadline) only ever hold one event.
   */
  private ring: (QueuedEvent | undefined)[] = [undefined, undefined];
  private head = 0;
  private size = 0;

  add(e: QueuedEvent): void {
    if (this.size === this.ring.length) this.grow();
    this.ring[(this.head + this.size) & (this.ring.length - 1)] = e;
    this.size++;
  }

  /** Drops cancelled events from the front; returns the first waiting one. */
  front(): QueuedEvent | undefined {
    const r = this.ring;
    while (this.size > 0) {
      const e = r[this.head]!;
      if (e.waiting) return e;
      this.drop();
    }
    return undefined;
  }

  /** Takes the front event, which `front()` has just returned, off the lane. */
  shift(): QueuedEvent {
    const e = this.ring[this.head]!;
    this.drop();
    return e;
  }

  private drop(): void {
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) & (this.ring.length - 1);
    this.size--;
  }

  private grow(): void {
    const old = this.ring;
    const n = old.length;
    const ring = new Array<QueuedEvent | undefined>(2 * n).fill(undefined);
    for (let i = 0; i < n; i++) ring[i] = old[(this.head + i) & (n - 1)];
    this.ring = ring;
    this.head = 0;
  }
}
