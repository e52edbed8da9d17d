/** Label sets and numbers as the Prometheus text formats write them. */
import type { Labels } from '../store.js';
import { compareCodePoints } from '../../trace/code-point-order.js';

const escapeLabelValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** `{a="1",b="2"}` with the family's label names first, `le` last; empty for no labels. */
export function formatLabels(labels: Labels): string {
  const keys = Object.keys(labels).sort((a, b) => (a === 'le' ? 1 : b === 'le' ? -1 : compareCodePoints(a, b)));
  return keys.length === 0 ? '' : `{${keys.map((k) => `${k}="${escapeLabelValue(labels[k]!)}"`).join(',')}}`;
}

export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return String(v);
}

/** Bucket order: by upper bound, +Inf last. */
export const leOrder = (le: string | undefined): number =>
  le === undefined ? -1 : le === '+Inf' ? Infinity : Number(le);
