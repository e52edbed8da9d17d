import type { Micros } from '../../clock/time.js';

/**
 * The largest number of instants in any half-open window [t, t + width). Checking the windows that start
 * at an instant is enough: sliding a window's start forward to its first instant loses nothing.
 */
export function maxInWindow(times: readonly Micros[], widthUs: Micros): { count: number; startUs: Micros | undefined } {
  const ts = [...times].sort((a, b) => a - b);
  let best = { count: 0, startUs: undefined as Micros | undefined };
  let hi = 0;
  for (let lo = 0; lo < ts.length; lo++) {
    while (hi < ts.length && ts[hi]! < ts[lo]! + widthUs) hi++;
    if (hi - lo > best.count) best = { count: hi - lo, startUs: ts[lo]! };
  }
  return best;
}
