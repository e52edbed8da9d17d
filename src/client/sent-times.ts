import type { Micros } from '../clock/time.js';

/**
 * The send times of one stream's unanswered requests, oldest first: a ring buffer, so a send and its
 * answer cost no allocation once the ring has grown to the stream's window.
 */
export class SentTimes {
  private buf: Micros[] = new Array<Micros>(16);
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The oldest unanswered send; only meaningful while `size > 0`. */
  get oldest(): Micros {
    return this.buf[this.head]!;
  }

  push(t: Micros): void {
    if (this.count === this.buf.length) this.grow();
    this.buf[(this.head + this.count) & (this.buf.length - 1)] = t;
    this.count++;
  }

  /** Settles the oldest send; a no-op when none is open. */
  shift(): void {
    if (this.count === 0) return;
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.count--;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  private grow(): void {
    const old = this.buf;
    const next = new Array<Micros>(old.length * 2);
    for (let i = 0; i < this.count; i++) next[i] = old[(this.head + i) & (old.length - 1)]!;
    this.buf = next;
    this.head = 0;
  }
}
