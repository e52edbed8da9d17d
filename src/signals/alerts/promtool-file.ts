/**
 * A `promtool test rules` input for a run: its scraped series as input_series, its rule group as a
 * rules file, and at every evaluation instant the alerts we found firing as exp_alerts. promtool
 * passing means Prometheus' own engine agrees with our firing times. Written as JSON, which is YAML.
 */
import { formatPromDuration } from '../promql/duration.js';
import { formatLabels, formatNumber } from '../export/labels.js';
import { scrapeTimes, type Scraped } from '../sample.js';
import { selectorsOf } from '../promql/ast.js';
import { firingAt, type AlertTimeline } from './evaluate.js';

export interface PromtoolFiles {
  readonly rules: string;
  readonly test: string;
}

export function promtoolFiles(scraped: readonly Scraped[], tl: AlertTimeline, rulesFile = 'rules.yml'): PromtoolFiles {
  const g = tl.group;
  const rules = {
    groups: [
      {
        name: 'lessor-sim',
        interval: formatPromDuration(g.intervalUs),
        rules: g.rules.map((r) => ({
          alert: r.name,
          expr: r.exprText,
          ...(r.forUs > 0 ? { for: formatPromDuration(r.forUs) } : {}),
          ...(Object.keys(r.labels).length > 0 ? { labels: r.labels } : {}),
        })),
      },
    ],
  };
  const end = tl.evaluations.at(-1) ?? 0;
  const times = scrapeTimes(g.scrapeIntervalUs, end);
  // Only the series the rules read: promtool loads every input series at every step.
  const used = new Set(g.rules.flatMap((r) => selectorsOf(r.expr).map((s) => s.name)));
  const inputSeries = scraped
    .filter((s) => used.has(s.name))
    .map((s) => {
      const at = new Map(s.samples.map((p) => [p.t, p.v]));
      const values = times.map((t) => {
        const v = at.get(t);
        return v === undefined ? '_' : v === 'stale' ? 'stale' : formatNumber(v);
      });
      return { series: `${s.name}${formatLabels(s.labels)}`, values: values.join(' ') };
    });
  const alertTests = tl.evaluations.flatMap((t) =>
    g.rules.map((r) => ({
      eval_time: formatPromDuration(t),
      alertname: r.name,
      exp_alerts: firingAt(tl, r.name, t).map((a) => {
        const { alertname: _, ...labels } = a.labels;
        return { exp_labels: labels };
      }),
    })),
  );
  const test = {
    rule_files: [rulesFile],
    evaluation_interval: formatPromDuration(g.intervalUs),
    tests: [
      { interval: formatPromDuration(g.scrapeIntervalUs), input_series: inputSeries, alert_rule_test: alertTests },
    ],
  };
  return { rules: `${JSON.stringify(rules, null, 2)}\n`, test: `${JSON.stringify(test, null, 2)}\n` };
}
