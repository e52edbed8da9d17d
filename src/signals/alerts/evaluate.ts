/**
 * Rule evaluation as Prometheus' rule manager does it: every interval from 0, each alert's expression
 * is evaluated; a new result becomes a pending alert, which fires once it has been active for the
 * rule's `for` (at once when `for` is 0); a result that disappears resolves its alert.
 */
import type { Micros } from '../../clock/time.js';
import { evaluate, PromqlEvalError, SeriesIndex, type Labels } from '../promql/eval.js';
import { scrape } from '../sample.js';
import type { Signals } from '../recorder.js';
import type { AlertGroup, AlertRule } from './rule.js';

export interface AlertInstance {
  readonly rule: string;
  /** The alert's labels: the result's (without __name__), the rule's, and alertname. */
  readonly labels: Labels;
  readonly activeAt: Micros;
  firedAt: Micros | undefined;
  resolvedAt: Micros | undefined;
}

export interface AlertTimeline {
  readonly group: AlertGroup;
  /** The evaluation instants, 0, interval, … up to the end. */
  readonly evaluations: readonly Micros[];
  readonly instances: readonly AlertInstance[];
  /** The first evaluation error of each rule that had one. */
  readonly errors: ReadonlyMap<string, string>;
}

const labelKey = (l: Labels): string =>
  Object.keys(l)
    .sort()
    .map((k) => `${k}=${l[k]}`)
    .join(',');

export function alertLabels(rule: AlertRule, result: Labels): Labels {
  const { __name__: _, ...rest } = result;
  return { ...rest, ...rule.labels, alertname: rule.name };
}

export function evaluateAlerts(signals: Signals, group: AlertGroup, untilUs: Micros = signals.endUs): AlertTimeline {
  const idx = new SeriesIndex(scrape(signals.store, group.scrapeIntervalUs, untilUs));
  const evaluations: Micros[] = [];
  for (let t = 0; t <= untilUs; t += group.intervalUs) evaluations.push(t);
  const instances: AlertInstance[] = [];
  const errors = new Map<string, string>();
  for (const rule of group.rules) {
    const active = new Map<string, AlertInstance>();
    for (const t of evaluations) {
      let result: readonly { labels: Labels }[] = [];
      try {
        const v = evaluate(rule.expr, idx, t);
        // A number as an alert expression alerts with no labels when it is not filtered away.
        result = v.kind === 'vector' ? v.samples : [{ labels: {} }];
      } catch (e) {
        if (!(e instanceof PromqlEvalError)) throw e;
        if (!errors.has(rule.name)) errors.set(rule.name, e.message);
      }
      const now = new Set<string>();
      for (const r of result) {
        const labels = alertLabels(rule, r.labels);
        const k = labelKey(labels);
        now.add(k);
        let a = active.get(k);
        if (a === undefined) {
          a = { rule: rule.name, labels, activeAt: t, firedAt: undefined, resolvedAt: undefined };
          active.set(k, a);
          instances.push(a);
        }
        if (a.firedAt === undefined && t - a.activeAt >= rule.forUs) a.firedAt = t;
      }
      for (const [k, a] of active) {
        if (now.has(k)) continue;
        a.resolvedAt = t;
        active.delete(k);
      }
    }
  }
  return { group, evaluations, instances, errors };
}

/** The instances of `rule` firing at instant `t` (by the last evaluation at or before it). */
export function firingAt(tl: AlertTimeline, rule: string, t: Micros): AlertInstance[] {
  const last = tl.evaluations.filter((e) => e <= t).at(-1);
  if (last === undefined) return [];
  return tl.instances.filter(
    (a) =>
      a.rule === rule &&
      a.firedAt !== undefined &&
      a.firedAt <= last &&
      (a.resolvedAt === undefined || a.resolvedAt > last),
  );
}

/** When `rule` first fired, if it did. */
export function firstFiring(tl: AlertTimeline, rule: string): Micros | undefined {
  const times = tl.instances.filter((a) => a.rule === rule && a.firedAt !== undefined).map((a) => a.firedAt!);
  return times.length === 0 ? undefined : Math.min(...times);
}
