import type { HeapItem } from './time-heap.js';
import type { Micros } from './time.js';

/**
 * What the scheduler's heap holds: a record that runs itself when it comes due. Hot paths (network
 * packets, process timers) subclass it, so one event is one object, with no closure wrapping another.
 */
export abstract class QueuedEvent implements HeapItem {
  time: Micros = 0;
  seq = 0;
  index = -1;
  /** True from posting until it fires or is cancelled. */
  waiting = false;

  abstract fire(): void;
}
