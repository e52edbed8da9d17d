/** Series grouped by family in a stable order, as exposition formats require. */
import type { FamilyDef } from '../families.js';
import { leOrder } from './labels.js';
import { compareCodePoints } from '../../trace/code-point-order.js';

export interface Named {
  readonly name: string;
  readonly family: FamilyDef;
  readonly labels: Readonly<Record<string, string>>;
}

const SUFFIX_ORDER = ['_bucket', '_sum', '_count'];
const suffixRank = (n: Named): number => SUFFIX_ORDER.findIndex((s) => n.name === n.family.name + s);

export function byFamily<T extends Named>(series: readonly T[]): [FamilyDef, T[]][] {
  const out = new Map<string, [FamilyDef, T[]]>();
  for (const s of series) {
    let g = out.get(s.family.name);
    if (g === undefined) out.set(s.family.name, (g = [s.family, []]));
    g[1].push(s);
  }
  const rest = (l: Readonly<Record<string, string>>) =>
    Object.keys(l)
      .filter((k) => k !== 'le')
      .sort()
      .map((k) => `${k}=${l[k]}`)
      .join(',');
  for (const [, list] of out.values()) {
    list.sort(
      (a, b) =>
        compareCodePoints(rest(a.labels), rest(b.labels)) ||
        suffixRank(a) - suffixRank(b) ||
        leOrder(a.labels.le) - leOrder(b.labels.le),
    );
  }
  return [...out.values()].sort((a, b) => compareCodePoints(a[0].name, b[0].name));
}
