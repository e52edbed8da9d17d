/**
 * OpenMetrics text of the whole scraped series, every sample with its timestamp (seconds of virtual
 * time). Staleness has no OpenMetrics form, so a series that went down simply has no samples then.
 */
import { MICROS_PER_SECOND } from '../../clock/time.js';
import type { Scraped } from '../sample.js';
import { byFamily } from './group.js';
import { formatLabels, formatNumber } from './labels.js';

/** OpenMetrics names a counter family without its _total suffix. */
const familyName = (name: string, type: string): string => (type === 'counter' ? name.replace(/_total$/, '') : name);

export function openMetrics(scraped: readonly Scraped[]): string {
  const lines: string[] = [];
  for (const [f, list] of byFamily(scraped)) {
    const name = familyName(f.name, f.type);
    lines.push(`# TYPE ${name} ${f.type}`, `# HELP ${name} ${f.help}`);
    for (const s of list) {
      for (const p of s.samples) {
        if (p.v === 'stale') continue;
        lines.push(`${s.name}${formatLabels(s.labels)} ${formatNumber(p.v)} ${(p.t / MICROS_PER_SECOND).toFixed(3)}`);
      }
    }
  }
  lines.push('# EOF');
  return lines.map((l) => `${l}\n`).join('');
}
