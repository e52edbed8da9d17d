/**
 * Integer flags: decimal digits only, within the range the value is used in, refused in one line otherwise.
 * A number JavaScript cannot hold exactly (above 2^53 - 1) would be silently rounded, so two different
 * values would run as one; the ranges below keep every value distinct where it is used.
 */
import { availableParallelism } from 'node:os';
import { UsageError } from './errors.js';

/** Campaign seeds and run indices are mixed as 32-bit integers (runSeedOf): beyond these, runs would repeat. */
export const MAX_CAMPAIGN_SEED = 2 ** 32 - 1;
export const MAX_RUNS = 2 ** 32;
/** More shards than any CI system runs jobs; `check merge` lists the missing ones, so the count stays sane. */
export const MAX_SHARDS = 10_000;
/** Each worker is a thread with its own heap (~50 MB): far past the cores it only costs memory. */
export const MAX_WORKERS = Math.max(64, availableParallelism());

export function intFlag(flag: string, v: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max || !Number.isSafeInteger(n))
    throw new UsageError(`${flag} takes an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}
