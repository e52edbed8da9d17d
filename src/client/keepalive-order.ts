import type { Micros } from '../clock/time.js';

/** What the order copies from a keepalive state, and where it keeps the state's position. */
export interface OrderedKeepAlive {
  readonly nextKeepAlive: Micros;
  readonly deadline: Micros;
  /** Index in the order built last. */
  pos: number;
}

/**
 * The keepalive states in the loops' order, with each one's `nextKeepAlive` and `deadline` copied beside
 * it in typed arrays: the send and deadline loops scan contiguous numbers and touch a state only when it
 * is due (each state is a separate heap object, and most are not due on a given pass). Built anew after
 * every change to the set of states; `update` keeps the copies equal to the states' fields.
 */
export class KeepAliveOrder<S extends OrderedKeepAlive> {
  readonly next: Float64Array;
  readonly deadline: Float64Array;

  constructor(readonly list: readonly S[]) {
    this.next = new Float64Array(list.length);
    this.deadline = new Float64Array(list.length);
    list.forEach((s, i) => {
      s.pos = i;
      this.update(s);
    });
  }

  /** Copies the times of `s`, which must be in this order. */
  update(s: S): void {
    this.next[s.pos] = s.nextKeepAlive;
    this.deadline[s.pos] = s.deadline;
  }
}
