import { QueuedEvent } from './queued-event.js';
import type { Scheduler, Timer } from './scheduler.js';
import type { Micros } from './time.js';

/** Work a process runs, as a record with a method (no closure per message). */
export interface ProcessTask {
  run(): void;
}

/** Whoever handles one kind of message on a process: `handOff` hands it the message, no closure needed. */
export interface Receiver<M> {
  receive(m: M): void;
}

/**
 * A timer of one incarnation of a process: fires through `timerDue`, so the process rules apply.
 * `arm` sets it again once it has fired, so a periodic timer is one object for its whole life.
 */
export class ProcessTimer extends QueuedEvent implements Timer, ProcessTask {
  cancelled = false;
  constructor(
    private readonly proc: Process,
    private readonly inc: number,
    private readonly fn: () => void,
    private readonly sched: Scheduler,
  ) {
    super();
  }
  get at(): Micros {
    return this.time;
  }
  fire(): void {
    this.proc.timerDue(this.inc, this);
  }
  run(): void {
    this.fn();
  }
  cancel(): void {
    this.cancelled = true;
    this.sched.unpost(this);
  }
  /**
   * Sets the timer to fire `delay` from now, in the order a new `after` would. Only while it is not set
   * and was never cancelled: a scheduler lane may still hold a cancelled timer's slot, which must stay dead.
   */
  arm(delay: Micros): void {
    if (this.waiting || this.cancelled) throw new Error('process: arm on a timer that is set or cancelled');
    this.sched.postAfter(delay, this);
  }
}

/**
 * One simulated OS process (an etcd member, a client). Its timers run on the shared scheduler, but the
 * process can be stopped like SIGSTOP (timers that come due are held and fire late, on resume, in the
 * order they came due) and killed (every pending timer of the old incarnation is dropped).
 *
 * It has two clocks, like a Go program: the monotonic clock is the virtual time itself; the wall clock is
 * virtual time plus an offset that `jumpWall` changes (NTP step, operator error) without touching the
 * monotonic clock.
 */
export class Process {
  private pausedSince: Micros | undefined;
  private held: ProcessTask[] = [];
  /** Network input not yet handed to the process: what arrived while it was stopped, then later arrivals. */
  private input: ProcessTask[] = [];
  private readonly drainInput = new InputDrain(this);
  private incarnation = 0;
  private wallOffset: Micros = 0;
  private dead = false;

  constructor(
    readonly name: string,
    private readonly sched: Scheduler,
  ) {}

  /** Monotonic time, µs. */
  now(): Micros {
    return this.sched.now();
  }

  /** Wall-clock time, µs since the simulation's epoch as this process's clock sees it. */
  wallNow(): Micros {
    return this.sched.now() + this.wallOffset;
  }

  jumpWall(delta: Micros): void {
    this.wallOffset += delta;
  }

  get paused(): boolean {
    return this.pausedSince !== undefined;
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** True while the process would execute code now (alive and not stopped). */
  get running(): boolean {
    return !this.dead && this.pausedSince === undefined;
  }

  /** Runs `fn` after `delay` on this process; held while stopped, dropped if the process dies first. */
  after(delay: Micros, fn: () => void): Timer {
    const t = new ProcessTimer(this, this.incarnation, fn, this.sched);
    this.sched.postAfter(delay, t);
    return t;
  }

  /** A timer of this incarnation that runs `fn`, not yet set: `arm` sets it, again each time it fires. */
  timer(fn: () => void): ProcessTimer {
    return new ProcessTimer(this, this.incarnation, fn, this.sched);
  }

  /**
   * Network input has arrived (a packet). Held apart from timers while stopped: see `resume`. Input that
   * comes while older input still waits joins the queue behind it, so each link stays FIFO.
   */
  receiveInput(inc: number, task: ProcessTask): void {
    if (inc !== this.incarnation || this.dead) return;
    if (this.pausedSince !== undefined || this.input.length > 0) this.input.push(task);
    else task.run();
  }

  /**
   * Runs work that comes from outside the process's own code (a scenario action, a holder's step, a driver's
   * request) under the same pause and death rules. Held with the timers while stopped; network input is
   * `receiveInput`'s.
   */
  runFromOutside(inc: number, fn: () => void): void {
    if (inc !== this.incarnation || this.dead) return;
    if (this.pausedSince !== undefined) this.held.push(new HeldOutsideCall(fn));
    else fn();
  }

  /** A timer of incarnation `inc` came due: it runs now, or is held while stopped (nothing allocated). */
  timerDue(inc: number, task: ProcessTask): void {
    if (inc !== this.incarnation || this.dead) return;
    if (this.pausedSince !== undefined) this.held.push(task);
    else task.run();
  }

  /**
   * Another loop of the same member hands `to` the message `m` (a raft message to the raft loop, a committed
   * entry to the apply loop): held with the timers while stopped; only a held message costs an object.
   */
  handOff<M>(inc: number, to: Receiver<M>, m: M): void {
    if (inc !== this.incarnation || this.dead) return;
    if (this.pausedSince !== undefined) this.held.push(new HeldHandOff(to, m));
    else to.receive(m);
  }

  /** The current incarnation; captured by callers that hand the process work later. */
  get generation(): number {
    return this.incarnation;
  }

  pause(): void {
    if (this.dead || this.pausedSince !== undefined) return;
    this.pausedSince = this.sched.now();
  }

  /**
   * SIGCONT. `inputFirst`: the network input that waited is handed over before the held timers run,
   * instead of behind what they schedule (the default); see below.
   */
  resume(inputFirst = false): void {
    if (this.pausedSince === undefined) return;
    this.pausedSince = undefined;
    const held = this.held;
    this.held = [];
    const inc = this.incarnation;
    if (inputFirst) this.runInput(inc);
    for (const task of held) {
      // A held callback killed (or killed and restarted) the process: the rest belonged to the old one.
      if (this.dead || this.incarnation !== inc) return;
      // A held callback paused the process again: keep the rest for the next resume.
      if (this.pausedSince !== undefined) this.held.push(task);
      else task.run();
    }
    // On SIGCONT the Go runtime's findrunnable checks timers before it polls the network, so the goroutines
    // the held timers wake, and the work those hand on at this instant, usually run before the bytes
    // queued in the process's sockets are read: real etcd 3.4.23 on a quiet host appends a thawed old
    // leader's LeaseRevoke in its old term before it reads the new leader's MsgApp. But a stream reader
    // that was already runnable, or another P polling the network, can take the input first; under load
    // real etcd goes that way too (docs/findings/resumed-leader-acts-on-stale-tick.md). The caller picks
    // (Cluster's seeded resume order). By default the input is taken up by an event at this instant,
    // behind what the held timers have scheduled.
    if (this.input.length > 0 && this.running && this.incarnation === inc && !this.drainInput.waiting)
      this.sched.postAfter(0, this.drainInput.arm(inc));
  }

  /** Hands the queued network input to the process in arrival order, under the pause and death rules. */
  runInput(inc: number): void {
    while (this.input.length > 0) {
      if (this.dead || this.incarnation !== inc) return;
      // Stopped again: the rest waits for the next resume.
      if (this.pausedSince !== undefined) return;
      this.input.shift()!.run();
    }
  }

  /** SIGKILL: everything pending is lost. */
  kill(): void {
    this.dead = true;
    this.incarnation++;
    this.held = [];
    this.input = [];
    this.pausedSince = undefined;
  }

  /** Starts a fresh incarnation after `kill`. */
  restart(): void {
    this.dead = false;
    this.incarnation++;
  }
}

/** The event that hands a resumed process its queued network input. */
class InputDrain extends QueuedEvent {
  private inc = 0;
  constructor(private readonly proc: Process) {
    super();
  }
  arm(inc: number): this {
    this.inc = inc;
    return this;
  }
  fire(): void {
    this.proc.runInput(this.inc);
  }
}

/** Work `runFromOutside` held while the process was stopped. */
class HeldOutsideCall implements ProcessTask {
  constructor(private readonly fn: () => void) {}
  run(): void {
    this.fn();
  }
}

/** A message `handOff` held while the process was stopped. */
class HeldHandOff<M> implements ProcessTask {
  constructor(
    private readonly to: Receiver<M>,
    private readonly m: M,
  ) {}
  run(): void {
    this.to.receive(this.m);
  }
}
