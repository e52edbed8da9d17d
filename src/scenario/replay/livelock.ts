import type { Scenario } from '../types.js';

/**
 * Every replay is guarded against a livelock: past this many events at one virtual instant, plus
 * EVENTS_PER_BATCH_LEASE for each lease the file's grant-many steps ask for, time has stopped moving. The
 * library's busiest instant (a 9,000-lease grant-many) runs about 9,000 events, and a grant-many costs at
 * most 11 events per lease at its instant (with latency 0); a real livelock trips within seconds.
 */
export const MAX_EVENTS_AT_ONE_INSTANT = 1_000_000;
export const EVENTS_PER_BATCH_LEASE = 16;

export function livelockThresholdOf(s: Scenario): number {
  let leases = 0;
  for (const step of s.steps) if (step.kind === 'grant-many') leases += step.count;
  return MAX_EVENTS_AT_ONE_INSTANT + EVENTS_PER_BATCH_LEASE * leases;
}
