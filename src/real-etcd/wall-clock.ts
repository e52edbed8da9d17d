/**
 * Real time for the real-etcd replay, in the simulation's unit (integer microseconds) so both runs'
 * instants compare directly. Monotonic (performance.now), never the wall clock a user can change.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Micros } from '../clock/time.js';

export const nowUs = (): Micros => Math.round(performance.now() * 1000);

/** Sleeps until the monotonic instant `tUs`; returns at once if it has passed. */
export async function sleepUntil(tUs: Micros): Promise<void> {
  const waitMs = (tUs - nowUs()) / 1000;
  if (waitMs > 0) await sleep(waitMs);
}

export const sleepMs = (ms: number): Promise<void> => sleep(ms);

/** Rejects with `message` if `p` has not settled within `ms`. */
export async function within<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
