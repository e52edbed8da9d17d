import type { Micros } from '../clock/time.js';
import type { Step } from './types.js';

/** Steps grouped by instant, in file order: same-instant steps run together, expects last. */
export function groupByTime(steps: readonly Step[]): Array<[Micros, Step[]]> {
  const out: Array<[Micros, Step[]]> = [];
  for (const s of steps) {
    const last = out.at(-1);
    if (last !== undefined && last[0] === s.atUs) last[1].push(s);
    else out.push([s.atUs, [s]]);
  }
  return out;
}
