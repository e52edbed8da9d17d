import type { Micros } from './time.js';

/**
 * Past this many events at one virtual instant a run is taken to be a livelock: time no longer moves.
 * The library's busiest instant (a 9,000-lease grant-many) runs about 9,000; a million leaves room for
 * far bigger storms and trips within about a second of wall time.
 */
export const MAX_EVENTS_AT_ONE_INSTANT = 1_000_000;

/** How often, in events, the scheduler calls a guard's `poll` hook by default. */
export const POLL_EVERY_EVENTS = 65_536;

/** What the scheduler's run loop checks between events. */
export interface RunGuard {
  /** The run stops before executing event number `maxEvents + 1`. */
  readonly maxEvents?: number;
  /** The livelock guard's threshold; MAX_EVENTS_AT_ONE_INSTANT by default. */
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
