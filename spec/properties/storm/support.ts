import { expect } from 'vitest';
import type { Micros } from '../../../src/clock/time.js';
import { MICROS_PER_SECOND } from '../../../src/clock/time.js';
import {
  drainBound,
  maxInWindow,
  primaryRevokes,
  stormDeadlines,
  type StormRun,
} from '../../../src/properties/storm/index.js';

/**
 * The storm properties every run must satisfy on a stable leader: offers (`lease-expired` on the primary)
 * and revokes applied on the primary stay within `rate` in every half-open 1 s window [t, t + 1 s) — all
 * of them, checked at each window start that is an event — and every lease is revoked within drainBound
 * of its deadline, counting the leases due no later than it. Returns the drain figures.
 */
export function checkStableDrain(run: StormRun, leases: number, commitLatencyUs: Micros, rate = 1000) {
  expect(run.revoked).toBe(leases);
  const offers = run.events.filter((e) => e.kind === 'lease-expired').map((e) => e.t);
  const revokes = primaryRevokes(run.events);
  expect(maxInWindow(offers, MICROS_PER_SECOND).count).toBeLessThanOrEqual(rate);
  const peak = maxInWindow([...revokes.values()], MICROS_PER_SECOND);
  expect(peak.count).toBeLessThanOrEqual(rate);
  const deadlines = stormDeadlines(run.events);
  const sorted = [...deadlines.values()].sort((a, b) => a - b);
  let worstLag = 0;
  let due = 0;
  const byDeadline = [...deadlines.entries()].sort((a, b) => a[1] - b[1]);
  for (const [id, deadline] of byDeadline) {
    while (due < sorted.length && sorted[due]! <= deadline) due++;
    const lag = revokes.get(id)! - deadline;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(drainBound({ due, rate, commitLatencyUs }));
    worstLag = Math.max(worstLag, lag);
  }
  return { peakPerSecond: peak.count, drainUs: Math.max(...revokes.values()) - sorted[0]!, worstLag };
}
