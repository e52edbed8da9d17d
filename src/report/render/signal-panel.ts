/**
 * What the timeline shows under the lanes for a scenario with alert rules: each rule's pending and
 * firing spans, and the series its expressions read, as scraped.
 */
import type { Micros } from '../../clock/time.js';
import type { RunResult } from '../../scenario/replay/runner.js';
import { evaluateAlerts } from '../../signals/alerts/evaluate.js';
import type { MetricType } from '../../signals/families.js';
import { selectorsOf } from '../../signals/promql/ast.js';
import { recordSignals } from '../../signals/recorder.js';
import { scrape, type Scraped } from '../../signals/sample.js';
import { formatLabels } from '../../signals/export/labels.js';
import { compareCodePoints } from '../../trace/code-point-order.js';

export interface AlertBand {
  readonly fromUs: Micros;
  readonly toUs: Micros;
  readonly firing: boolean;
  readonly about: string;
}

export interface PlottedSeries {
  readonly label: string;
  readonly type: MetricType;
  /** Scrapes: a value, or null where the target answered no scrape (a gap). */
  readonly points: readonly (readonly [Micros, number | null])[];
}

export interface SignalPanel {
  readonly alerts: readonly { readonly name: string; readonly bands: readonly AlertBand[] }[];
  readonly series: readonly PlottedSeries[];
  /** Series left out to keep the panel short. */
  readonly hidden: number;
}

const MAX_SERIES = 8;

export function signalPanel(r: RunResult): SignalPanel | undefined {
  const group = r.scenario.alerts;
  if (group === undefined) return undefined;
  const endUs = r.scenario.durationUs;
  const signals = recordSignals(r.trace.events, endUs);
  const tl = evaluateAlerts(signals, group);
  const alerts = group.rules.map((rule) => ({
    name: rule.name,
    bands: tl.instances
      .filter((a) => a.rule === rule.name)
      .flatMap((a): AlertBand[] => {
        const end = a.resolvedAt ?? endUs;
        const about = `${rule.name}${formatLabels(a.labels)}`;
        const pending: AlertBand[] =
          (a.firedAt ?? end) > a.activeAt
            ? [{ fromUs: a.activeAt, toUs: a.firedAt ?? end, firing: false, about: `${about} pending` }]
            : [];
        const firing: AlertBand[] =
          a.firedAt === undefined
            ? []
            : [
                {
                  fromUs: a.firedAt,
                  toUs: Math.max(end, a.firedAt + group.intervalUs),
                  firing: true,
                  about: `${about} firing`,
                },
              ];
        return [...pending, ...firing];
      }),
  }));
  // The series of the first rules first, and among them those that move before those that stay flat.
  const names = [...new Set(group.rules.flatMap((rule) => selectorsOf(rule.expr).map((s) => s.name!)))];
  const flat = (x: Scraped) => new Set(x.samples.map((p) => p.v)).size <= 1;
  const all = scrape(signals.store, group.scrapeIntervalUs, endUs)
    .filter((s) => names.includes(s.name))
    .sort(
      (a, b) =>
        Number(flat(a)) - Number(flat(b)) ||
        names.indexOf(a.name) - names.indexOf(b.name) ||
        compareCodePoints(`${a.name}${formatLabels(a.labels)}`, `${b.name}${formatLabels(b.labels)}`),
    );
  const series = all.slice(0, MAX_SERIES).map((s) => ({
    label: `${s.name}${formatLabels(s.labels)}`,
    type: s.family.type,
    points: s.samples.map((p) => [p.t, p.v === 'stale' ? null : p.v] as const),
  }));
  return { alerts, series, hidden: all.length - series.length };
}
