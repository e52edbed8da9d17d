/**
 * Reading series the way Prometheus sees them: the value at an instant, and scrapes on a fixed grid of
 * virtual time from 0. A scrape of a series whose process is down records a staleness marker once.
 */
import type { Micros } from '../clock/time.js';
import type { Labels, Series, SignalStore } from './store.js';
import type { FamilyDef } from './families.js';

/** The value at `t` (after every change at `t`): undefined before the series exists, null while down. */
export function valueAt(s: Series, t: Micros): number | null | undefined {
  let lo = 0;
  let hi = s.points.length - 1;
  if (hi < 0 || s.points[0]!.t > t) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s.points[mid]!.t <= t) lo = mid;
    else hi = mid - 1;
  }
  return s.points[lo]!.v;
}

/** A scraped sample: a value, or Prometheus' staleness marker. */
export interface Sample {
  readonly t: Micros;
  readonly v: number | 'stale';
}

export interface Scraped {
  readonly name: string;
  readonly family: FamilyDef;
  readonly labels: Labels;
  readonly samples: readonly Sample[];
}

/** The scrape instants 0, interval, 2·interval, … up to `endUs`. */
export function scrapeTimes(intervalUs: Micros, endUs: Micros): Micros[] {
  const out: Micros[] = [];
  for (let t = 0; t <= endUs; t += intervalUs) out.push(t);
  return out;
}

export function scrape(store: SignalStore, intervalUs: Micros, endUs: Micros): Scraped[] {
  const times = scrapeTimes(intervalUs, endUs);
  return store.series.map((s) => {
    const samples: Sample[] = [];
    let up = false;
    for (const t of times) {
      const v = valueAt(s, t);
      if (typeof v === 'number') {
        samples.push({ t, v });
        up = true;
      } else if (up) {
        samples.push({ t, v: 'stale' });
        up = false;
      }
    }
    return { name: s.name, family: s.family, labels: s.labels, samples };
  });
}
