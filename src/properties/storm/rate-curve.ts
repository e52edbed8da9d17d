import { MICROS_PER_SECOND, formatSeconds, type Micros } from '../../clock/time.js';
import type { TraceEvent } from '../../trace/trace.js';
import { primaryRevokes } from './revokes.js';

/** Revocations applied on the primary per bucket: counts[i] covers [startUs + i·bucketUs, + bucketUs). */
export interface RateCurve {
  readonly startUs: Micros;
  readonly bucketUs: Micros;
  readonly counts: readonly number[];
}

export function revokeRateCurve(events: readonly TraceEvent[], bucketUs: Micros): RateCurve {
  const times = [...primaryRevokes(events).values()];
  if (times.length === 0) return { startUs: 0, bucketUs, counts: [] };
  const startUs = Math.floor(Math.min(...times) / bucketUs) * bucketUs;
  const counts: number[] = [];
  for (const t of times) {
    const i = Math.floor((t - startUs) / bucketUs);
    while (counts.length <= i) counts.push(0);
    counts[i]!++;
  }
  return { startUs, bucketUs, counts };
}

const BARS = ' ▁▂▃▄▅▆▇█';

/**
 * The curve as text: a sparkline (one character per bucket, scaled to the peak), then a table of the
 * non-empty buckets as revokes per second, merged into at most `rows` lines.
 */
export function formatRateCurve(c: RateCurve, rows = 12): string {
  if (c.counts.length === 0) return '(no revokes)';
  const peak = Math.max(...c.counts);
  const perSecond = (n: number): number => Math.round((n * MICROS_PER_SECOND) / c.bucketUs);
  const spark = c.counts
    .map((n) => BARS[n === 0 ? 0 : Math.max(1, Math.round((n / peak) * (BARS.length - 1)))])
    .join('');
  const step = Math.ceil(c.counts.length / rows);
  const lines: string[] = [];
  for (let i = 0; i < c.counts.length; i += step) {
    const slice = c.counts.slice(i, i + step);
    const total = slice.reduce((a, b) => a + b, 0);
    const from = c.startUs + i * c.bucketUs;
    lines.push(
      `${formatSeconds(from).padStart(14)} – ${formatSeconds(from + slice.length * c.bucketUs).padStart(14)}` +
        ` s  ${String(total).padStart(8)} revokes  ${String(perSecond(total / slice.length)).padStart(6)}/s`,
    );
  }
  return `peak ${perSecond(peak)}/s per ${c.bucketUs / 1000} ms bucket\n${spark}\n${lines.join('\n')}`;
}
