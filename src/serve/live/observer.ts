/**
 * The live view's onlooker of the served cluster (RunOptions.observer): the messages put on the wire and the
 * primary lessors' run-loop passes since the last frame. It only reads, so the trace and its hash are what
 * they are without it; it is only attached under `serve --playground`. Bounded: a burst larger than a frame
 * carries keeps its newest messages and counts the rest.
 */
import type { Micros } from '../../clock/time.js';
import type { Packet } from '../../cluster/network/network.js';
import type { ClusterObserver } from '../../cluster/observer.js';
import type { LiveMessage } from './frame.js';

/** At most this many messages per frame (a frame is 100 ms of wall time). */
export const FRAME_MESSAGES = 2_000;

export class LiveObserver implements ClusterObserver {
  private messages: LiveMessage[] = [];
  private passes: Array<readonly [string, Micros]> = [];
  private skipped = 0;
  private clocks: Array<readonly [string, Micros, number, number]> = [];

  sent(p: Packet, sentUs: Micros, arriveUs: Micros | undefined): void {
    const l = p.label();
    this.messages.push({
      from: p.from,
      to: p.to,
      sentUs,
      arriveUs: arriveUs ?? null,
      kind: l.kind,
      ...(l.lease !== undefined ? { lease: l.lease.toString() } : {}),
      ...(l.carries !== undefined ? { carries: l.carries } : {}),
    });
    if (this.messages.length > 2 * FRAME_MESSAGES) {
      this.skipped += this.messages.length - FRAME_MESSAGES;
      this.messages = this.messages.slice(-FRAME_MESSAGES);
    }
  }

  runLoopPass(member: string, t: Micros, primary: boolean): void {
    if (primary) this.passes.push([member, t]);
  }

  electionClock(member: string, t: Micros, elapsedTicks: number, timeoutTicks: number): void {
    // One change per member and instant is enough (the picture keeps the last of an instant).
    const last = this.clocks[this.clocks.length - 1];
    if (last !== undefined && last[0] === member && last[1] === t) this.clocks.pop();
    this.clocks.push([member, t, elapsedTicks, timeoutTicks]);
  }

  /** What was seen since the last drain; the buffers start over. */
  drain(): {
    messages: LiveMessage[];
    passes: Array<readonly [string, Micros]>;
    clocks: Array<readonly [string, Micros, number, number]>;
    skipped: number;
  } {
    const over = Math.max(0, this.messages.length - FRAME_MESSAGES);
    const out = {
      messages: this.messages.slice(over),
      passes: this.passes,
      clocks: this.clocks,
      skipped: this.skipped + over,
    };
    this.messages = [];
    this.passes = [];
    this.clocks = [];
    this.skipped = 0;
    return out;
  }
}
