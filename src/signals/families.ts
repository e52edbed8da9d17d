/**
 * The metric families lessor-sim's components emit, named and labelled as etcd and the runbook name
 * them. One table, so exporters print HELP/TYPE lines and expects can suggest a name on a typo.
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface FamilyDef {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  /** Label names every series of the family carries, besides a histogram's `le`. */
  readonly labels: readonly string[];
  /** Histogram bucket upper bounds (ascending, +Inf implied). */
  readonly buckets?: readonly number[];
}

/** Every name a family exposes: a histogram also answers to its _bucket, _sum and _count series. */
export function exposedNames(f: FamilyDef): string[] {
  return f.type === 'histogram' ? [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`] : [f.name];
}
