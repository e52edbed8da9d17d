import type { Micros } from './time.js';

/**
 * The scheduler's own count of time: virtual µs minus 2^31. V8 without pointer compression (this Node
 * build) keeps integers in [-2^31, 2^31) as small integers and everything past them as heap numbers, so
 * a µs timestamp stored in an event stops being small at 2,147 virtual seconds and the queue then boxes
 * every due time it stores. Counting from -2^31 µs keeps due times small for the first 4,294 seconds.
 *
 * Only the scheduler and its queue records see this count; every time they hand out (`now`, `Timer.at`,
 * `peekTime`, a stop's time) is converted back here, so traces and every interface keep plain virtual time.
 * Exact both ways: 2^31 is a multiple of a double's spacing below 2^84, far past any time the clock holds.
 */
const ORIGIN = 2 ** 31;

/** A virtual instant as the scheduler's queue counts it. */
export type QueueTime = number;

export const toQueueTime = (t: Micros): QueueTime => t - ORIGIN;
export const fromQueueTime = (q: QueueTime): Micros => q + ORIGIN;
