import type { Micros } from './time.js';

/** How often, in events, the scheduler calls a guard's `poll` hook by default. */
export const POLL_EVERY_EVENTS = 65_536;

/** What the scheduler's run loop checks between events. */
export interface RunGuard {
  /** The run stops before executing event number `maxEvents + 1`. */
  readonly maxEvents?: number;
  /**
   * Past this many events at one virtual instant the run is a livelock (time no longer moves); unguarded when absent.
   */
  readonly maxEventsAtOneInstant?: number;
  /**
   * Called every `pollEvery` events with the virtual time reached and the events so far; returning a
   * reason stops the run. This is how a front end adds a wall-clock timeout or draws progress without
   * the simulation ever reading a real clock.
   */
  readonly poll?: (nowUs: Micros, events: number) => string | undefined;
  readonly pollEvery?: number;
}

export type StopReason = 'max-events' | 'poll' | 'livelock';

/** Thrown out of the run loop when a guard ends a run; the run is abandoned, its state left as it was. */
export class RunStopped extends Error {
  constructor(
    readonly reason: StopReason,
    /** The virtual time reached. */
    readonly atUs: Micros,
    /** Events executed before the stop. */
    readonly events: number,
    message: string,
  ) {
    super(message);
    this.name = 'RunStopped';
  }
}
