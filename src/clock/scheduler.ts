import { QueuedEvent } from './queued-event.js';
import { POLL_EVERY_EVENTS, RunStopped, type RunGuard } from './run-guard.js';
import { TimeHeap } from './time-heap.js';
import { TimerLane } from './timer-lane.js';
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
    private readonly sched: Scheduler,
  ) {
    super();
  }
  get at(): Micros {
    return this.time;
  }
  fire(): void {
    this.fn();
  }
  cancel(): void {
    this.cancelled = true;
    this.sched.unpost(this);
  }
}

/**
 * The discrete-event scheduler that owns virtual time. Events run in time order; events due at the same
 * instant run in the order they were scheduled (insertion sequence), so a run is a pure function of its
 * inputs. Time only moves when the scheduler pops an event, never on its own.
 */
export class Scheduler {
  private readonly queue = new TimeHeap<QueuedEvent | TimerLane>();
  /** Events posted at a delay wait in the lane of that delay; a lane is in the heap while it holds one. */
  private readonly lanes = new Map<Micros, TimerLane>();
  private lanesInHeap = 0;
  /** Events waiting in lanes (cancelled ones excluded). */
  private inLanes = 0;
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
    return this.queue.length - this.lanesInHeap + this.inLanes;
  }

  /** Sets the event budget, poll hook and livelock threshold the run loop enforces from now on. */
  setGuard(guard: RunGuard): void {
    this.guard = guard;
    this.burstCap = guard.maxEventsAtOneInstant ?? Infinity;
    this.nextPoll = guard.poll === undefined ? Infinity : this.executed + (guard.pollEvery ?? POLL_EVERY_EVENTS);
    this.nextCheck = Math.min(guard.maxEvents ?? Infinity, this.nextPoll);
  }

  at(time: Micros, fn: () => void): Timer {
    const e = new Entry(fn, this);
    this.post(time, e);
    return e;
  }

  after(delay: Micros, fn: () => void): Timer {
    const e = new Entry(fn, this);
    this.postAfter(delay, e);
    return e;
  }

  /** Queues an event record to fire at `time`; `unpost` takes it off again (as `Timer.cancel` does). */
  post(time: Micros, e: QueuedEvent): void {
    if (!Number.isInteger(time)) throw new RangeError(`scheduler: time must be an integer of µs, got ${time}`);
    if (time < this.current) throw new RangeError(`scheduler: cannot schedule in the past (${time} < ${this.current})`);
    e.time = time;
    e.waiting = true;
    this.queue.push(e);
  }

  /** `post` at `delay` from now, in the same order; the event waits in the lane of its delay. */
  postAfter(delay: Micros, e: QueuedEvent): void {
    this.postInLane(this.laneOf(delay), e);
  }

  /**
   * The lane of events posted at `delay`, for a sender that keeps it and calls `postInLane`. Only valid
   * delays get a lane, so the checks run once per delay.
   */
  laneOf(delay: Micros): TimerLane {
    let lane = this.lanes.get(delay);
    if (lane === undefined) {
      if (delay < 0) throw new RangeError(`scheduler: negative delay ${delay}`);
      if (!Number.isInteger(delay))
        throw new RangeError(`scheduler: time must be an integer of µs, got ${this.current + delay}`);
      lane = new TimerLane(delay);
      this.lanes.set(delay, lane);
    }
    return lane;
  }

  /** `postAfter` at the lane's delay, without looking the lane up. */
  postInLane(lane: TimerLane, e: QueuedEvent): void {
    e.time = this.current + lane.delay;
    e.seq = this.queue.takeSeq();
    e.waiting = true;
    lane.add(e);
    this.inLanes++;
    if (lane.index < 0) {
      lane.time = e.time;
      lane.seq = e.seq;
      this.queue.insert(lane);
      this.lanesInHeap++;
    }
  }

  /** Takes a posted event off the queue; a no-op once it has fired or been taken off. */
  unpost(e: QueuedEvent): void {
    if (!e.waiting) return;
    e.waiting = false;
    // In the heap it goes at once; in a lane it is skipped when it reaches the front.
    if (e.index >= 0) this.queue.remove(e);
    else this.inLanes--;
  }

  /** Time of the next live event, or undefined when nothing is queued. */
  peekTime(): Micros | undefined {
    return this.top()?.time;
  }

  /** Runs one event. Returns false when the queue is empty. */
  step(): boolean {
    const e = this.top();
    if (e === undefined) return false;
    this.run(e);
    return true;
  }

  /** Runs the event (or the front of the lane) `top` has just returned. */
  private run(e: QueuedEvent | TimerLane): void {
    const at = e.time;
    if (at !== this.burstAt) {
      this.burstAt = at;
      this.burst = 0;
    }
    if (++this.burst > this.burstCap)
      throw new RunStopped('livelock', at, this.executed, `more than ${this.burstCap} events at one virtual instant`);
    if (this.executed >= this.nextCheck) this.checkpoint();
    let ev: QueuedEvent;
    if (e instanceof TimerLane) {
      ev = e.shift();
      this.inLanes--;
      const next = e.front();
      if (next === undefined) this.disarm(e);
      else this.rearm(e, next);
    } else {
      this.queue.pop();
      ev = e;
    }
    ev.waiting = false;
    this.current = at;
    this.executed++;
    ev.fire();
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

  private rearm(lane: TimerLane, e: QueuedEvent): void {
    lane.time = e.time;
    lane.seq = e.seq;
    this.queue.fix(lane);
  }

  private disarm(lane: TimerLane): void {
    this.queue.remove(lane);
    this.lanesInHeap--;
  }

  /** Runs every event due at or before `time`, then leaves the clock at `time`. */
  runUntil(time: Micros): void {
    if (time < this.current) throw new RangeError(`scheduler: runUntil(${time}) is in the past`);
    // One `top` per event: the loop runs what it has just looked at.
    for (;;) {
      const e = this.top();
      if (e === undefined || e.time > time) break;
      this.run(e);
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
      const e = this.top();
      if (e === undefined) return true;
      if (e.time > limit) {
        this.current = Math.max(this.current, limit);
        return false;
      }
      this.run(e);
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
