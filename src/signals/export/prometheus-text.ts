/** Prometheus text exposition (format 0.0.4) of every series as a scrape at one virtual instant would see it. */
import type { Micros } from '../../clock/time.js';
import { valueAt } from '../sample.js';
import type { SignalStore } from '../store.js';
import { byFamily } from './group.js';
import { formatLabels, formatNumber } from './labels.js';

export function prometheusText(store: SignalStore, t: Micros): string {
  const present = store.series.flatMap((s) => {
    const v = valueAt(s, t);
    return typeof v === 'number' ? [{ ...s, v }] : [];
  });
  const lines: string[] = [];
  for (const [f, list] of byFamily(present)) {
    lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of list) lines.push(`${s.name}${formatLabels(s.labels)} ${formatNumber(s.v)}`);
  }
  return lines.map((l) => `${l}\n`).join('');
}
