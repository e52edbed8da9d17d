import { POLL_EVERY_EVENTS, RunStopped, type RunGuard } from './run-guard.js';
import { TimeHeap, type HeapItem } from './time-heap.js';
import type { Micros } from './time.js';

/** A pending callback on the virtual timeline. Cancelling takes it off the queue at once. */
export interface Timer {
  readonly at: Micros;
  cancel(): void;
  readonly cancelled: boolean;
}

class Entry implements Timer, HeapItem {
  cancelled = false;
  seq = 0;
  index = -1;
  constructor(
    readonly time: Micros,
    readonly fn: () => void,
    private readonly queue: TimeHeap<Entry>,
  ) {}
  get at(): Micros {
    return this.time;
  }
  // Removing eagerly keeps the heap to live events: most timers are request deadlines that get cancelled.
  cancel(): void {
    this.cancelled = true;
    this.queue.remove(this);
  }
}

/**
 * The discrete-event scheduler that owns virtual time. Events run in time order; events due at the same
 * instant run in the order they were scheduled (insertion sequence), so a run is a pure function of its
 * inputs. Time only moves when the scheduler pops an event, never on its own.
 */
export class Scheduler {
  private readonly queue = new TimeHeap<Entry>();
  private current: Micros;
  private executed = 0;
  private guard: RunGuard = {};
  /** The next event count at which `checkpoint` runs (the budget or the next poll). */
  private nextCheck = Infinity;
  private nextPoll = Infinity;
  private burstAt: Micros = Number.NaN;
  private burst = 0;
  private burstCap = Infinity;

  /** `start` lets a harness boot a system before its time 0 (a scenario's cluster elects n1 by then). */
  constructor(start: Micros = 0) {
    this.current = start;
  }

  now(): Micros {
    return this.current;
  }

  /** Events executed so far (cancelled ones excluded): the simulator's unit of work for benchmarks. */
  get eventsExecuted(): number {
    return this.executed;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Sets the event budget, poll hook and livelock threshold the run loop enforces from now on. */
  setGuard(guard: RunGuard): void {
    this.guard = guard;
    this.burstCap = guard.maxEventsAtOneInstant ?? Infinity;
    this.nextPoll = guard.poll === undefined ? Infinity : this.executed + (guard.pollEvery ?? POLL_EVERY_EVENTS);
    this.nextCheck = Math.min(guard.maxEvents ?? Infinity, this.nextPoll);
  }

  at(time: Micros, fn: () => void): Timer {
    if (!Number.isInteger(time)) throw new RangeError(`scheduler: time must be an integer of µs, got ${time}`);
    if (time < this.current) throw new RangeError(`scheduler: cannot schedule in the past (${time} < ${this.current})`);
    const e = new Entry(time, fn, this.queue);
    this.queue.push(e);
    return e;
  }

  after(delay: Micros, fn: () => void): Timer {
    if (delay < 0) throw new RangeError(`scheduler: negative delay ${delay}`);
    return this.at(this.current + delay, fn);
  }

  /** Time of the next live event, or undefined when nothing is queued. */
  peekTime(): Micros | undefined {
    return this.queue.peek()?.at;
  }

  /** Runs one event. Returns false when the queue is empty. */
  step(): boolean {
    const e = this.queue.pop();
    if (e === undefined) return false;
    if (e.at !== this.burstAt) {
      this.burstAt = e.at;
      this.burst = 0;
    }
    if (++this.burst > this.burstCap)
      throw new RunStopped('livelock', e.at, this.executed, `more than ${this.burstCap} events at one virtual instant`);
    if (this.executed >= this.nextCheck) this.checkpoint();
    this.current = e.at;
    this.executed++;
    e.fn();
    return true;
  }

  /** Runs every event due at or before `time`, then leaves the clock at `time`. */
  runUntil(time: Micros): void {
    if (time < this.current) throw new RangeError(`scheduler: runUntil(${time}) is in the past`);
    for (;;) {
      const next = this.peekTime();
      if (next === undefined || next > time) break;
      this.step();
    }
    this.current = time;
  }

  /** Runs events for `d` µs of virtual time. */
  advance(d: Micros): void {
    this.runUntil(this.current + d);
  }

  /** Runs until nothing is queued or `limit` is reached; returns whether it went idle. */
  runUntilIdle(limit: Micros = Number.MAX_SAFE_INTEGER): boolean {
    for (;;) {
      const next = this.peekTime();
      if (next === undefined) return true;
      if (next > limit) {
        this.current = Math.max(this.current, limit);
        return false;
      }
      this.step();
    }
  }

  /** Ends the run when it has used its event budget or the poll hook says so; otherwise sets the next check. */
  private checkpoint(): void {
    const g = this.guard;
    if (g.maxEvents !== undefined && this.executed >= g.maxEvents) {
      throw new RunStopped('max-events', this.current, this.executed, `passed its budget of ${g.maxEvents} events`);
    }
    if (this.executed >= this.nextPoll) {
      this.nextPoll = this.executed + (g.pollEvery ?? POLL_EVERY_EVENTS);
      const why = g.poll?.(this.current, this.executed);
      if (why !== undefined) throw new RunStopped('poll', this.current, this.executed, why);
    }
    this.nextCheck = Math.min(g.maxEvents ?? Infinity, this.nextPoll);
  }
}
