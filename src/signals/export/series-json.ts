/** The whole scraped series as JSON: families, then each series' samples as [seconds, value | "stale"]. */
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { Scraped } from '../sample.js';
import { byFamily } from './group.js';

export function seriesJson(scraped: readonly Scraped[], intervalUs: Micros): string {
  const groups = byFamily(scraped);
  return JSON.stringify(
    {
      scrape_interval_s: intervalUs / MICROS_PER_SECOND,
      families: groups.map(([f]) => ({ name: f.name, type: f.type, help: f.help })),
      series: groups.flatMap(([, list]) =>
        list.map((s) => ({
          name: s.name,
          labels: s.labels,
          samples: s.samples.map((p) => [p.t / MICROS_PER_SECOND, p.v]),
        })),
      ),
    },
    null,
    2,
  );
}
