import { QueuedEvent } from './queued-event.js';
import { POLL_EVERY_EVENTS, RunStopped, type RunGuard } from './run-guard.js';
import { TimeHeap } from './time-heap.js';
import { LaneTimer, TimerLane } from './timer-lane.js';
import type { Micros } from './time.js';

/** A pending callback on the virtual timeline. Cancelling takes it off the queue at once. */
export interface Timer {
  readonly at: Micros;
  cancel(): void;
  readonly cancelled: boolean;
}

class Entry extends QueuedEvent implements Timer {
  cancelled = false;
  constructor(
    private readonly fn: () => void,
    private readonly queue: TimeHeap<QueuedEvent | TimerLane>,
  ) {
    super();
  }
  get at(): Micros {
    return this.time;
  }
  fire(): void {
    this.fn();
  }
  // Removing eagerly keeps the heap to live events.
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
  private readonly queue = new TimeHeap<QueuedEvent | TimerLane>();
  /** One lane per delay used with `deadline`; a lane is in the heap while it holds a timer. */
  private readonly lanes = new Map<Micros, TimerLane>();
  private lanesInHeap = 0;
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
    let n = this.queue.length - this.lanesInHeap;
    for (const lane of this.lanes.values()) n += lane.live;
    return n;
  }

  /** Sets the event budget, poll hook and livelock threshold the run loop enforces from now on. */
  setGuard(guard: RunGuard): void {
    this.guard = guard;
    this.burstCap = guard.maxEventsAtOneInstant ?? Infinity;
    this.nextPoll = guard.poll === undefined ? Infinity : this.executed + (guard.pollEvery ?? POLL_EVERY_EVENTS);
    this.nextCheck = Math.min(guard.maxEvents ?? Infinity, this.nextPoll);
  }

  at(time: Micros, fn: () => void): Timer {
    const e = new Entry(fn, this.queue);
    this.post(time, e);
    return e;
  }

  /** Queues an event record to fire at `time`; `unpost` takes it off again (as `Timer.cancel` does). */
  post(time: Micros, e: QueuedEvent): void {
    if (!Number.isInteger(time)) throw new RangeError(`scheduler: time must be an integer of µs, got ${time}`);
    if (time < this.current) throw new RangeError(`scheduler: cannot schedule in the past (${time} < ${this.current})`);
    e.time = time;
    this.queue.push(e);
  }

  /** Takes a posted event off the queue; a no-op once it has fired. */
  unpost(e: QueuedEvent): void {
    this.queue.remove(e);
  }

  after(delay: Micros, fn: () => void): Timer {
    if (delay < 0) throw new RangeError(`scheduler: negative delay ${delay}`);
    return this.at(this.current + delay, fn);
  }

  /**
   * Like `after(delay, fn)`, run in exactly the same order, for timers set over and over with one delay
   * and mostly cancelled before they fire (request deadlines): they wait in a FIFO per delay, so
   * setting and cancelling one does not touch the heap.
   */
  deadline(delay: Micros, fn: () => void): Timer {
    if (delay < 0) throw new RangeError(`scheduler: negative delay ${delay}`);
    if (!Number.isInteger(delay)) throw new RangeError(`scheduler: time must be an integer of µs, got ${delay}`);
    let lane = this.lanes.get(delay);
    if (lane === undefined) {
      lane = new TimerLane(delay);
      this.lanes.set(delay, lane);
    }
    const t = new LaneTimer(this.current + delay, this.queue.takeSeq(), fn, lane);
    lane.add(t);
    if (lane.index < 0) this.arm(lane, t);
    return t;
  }

  /** Time of the next live event, or undefined when nothing is queued. */
  peekTime(): Micros | undefined {
    return this.top()?.time;
  }

  /** Runs one event. Returns false when the queue is empty. */
  step(): boolean {
    const e = this.top();
    if (e === undefined) return false;
    const at = e.time;
    if (at !== this.burstAt) {
      this.burstAt = at;
      this.burst = 0;
    }
    if (++this.burst > this.burstCap)
      throw new RunStopped('livelock', at, this.executed, `more than ${this.burstCap} events at one virtual instant`);
    if (this.executed >= this.nextCheck) this.checkpoint();
    if (e instanceof TimerLane) {
      const t = e.shift();
      const fn = t.fn!;
      t.fn = undefined;
      const next = e.front();
      if (next === undefined) this.disarm(e);
      else this.rearm(e, next);
      this.current = at;
      this.executed++;
      fn();
    } else {
      this.queue.pop();
      this.current = at;
      this.executed++;
      e.fire();
    }
    return true;
  }

  /** The heap's first live event, after moving lanes whose front was cancelled on to their next timer. */
  private top(): QueuedEvent | TimerLane | undefined {
    for (;;) {
      const e = this.queue.peek();
      if (!(e instanceof TimerLane)) return e;
      const front = e.front();
      if (front === undefined) this.disarm(e);
      else if (front.seq === e.seq) return e;
      else this.rearm(e, front);
    }
  }

  private arm(lane: TimerLane, t: LaneTimer): void {
    lane.time = t.at;
    lane.seq = t.seq;
    this.queue.insert(lane);
    this.lanesInHeap++;
  }

  private rearm(lane: TimerLane, t: LaneTimer): void {
    lane.time = t.at;
    lane.seq = t.seq;
    this.queue.fix(lane);
  }

  private disarm(lane: TimerLane): void {
    this.queue.remove(lane);
    this.lanesInHeap--;
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
