/** PromQL durations (`30s`, `1m30s`, `1h`, `500ms`) in microseconds. */
import type { Micros } from '../../clock/time.js';

const UNIT_US: Readonly<Record<string, number>> = {
  ms: 1_000,
  s: 1_000_000,
  m: 60_000_000,
  h: 3_600_000_000,
  d: 86_400_000_000,
  w: 604_800_000_000,
  y: 31_536_000_000_000,
};

export function promDuration(text: string): Micros | undefined {
  if (!/^(\d+(ms|[smhdwy]))+$/.test(text)) return undefined;
  let us = 0;
  for (const m of text.matchAll(/(\d+)(ms|[smhdwy])/g)) us += Number(m[1]) * UNIT_US[m[2]!]!;
  return us;
}

/** As Prometheus prints it: the largest units first, `0s` for zero. */
export function formatPromDuration(us: Micros): string {
  if (us === 0) return '0s';
  let out = '';
  let rest = us;
  for (const unit of ['h', 'm', 's', 'ms'] as const) {
    const n = Math.floor(rest / UNIT_US[unit]!);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * UNIT_US[unit]!;
  }
  return out;
}
