/**
 * Verdicts of the signal assertions: the run's signals recorded from the trace so far, its alert rules
 * evaluated up to this instant, read as an SRE would read them.
 */
import { formatSecondsShort, type Micros } from '../../clock/time.js';
import { evaluateAlerts, firingAt, firstFiring, type AlertTimeline } from '../../signals/alerts/evaluate.js';
import { recordSignals, type Signals } from '../../signals/recorder.js';
import { valueAt } from '../../signals/sample.js';
import type { TraceEvent } from '../../trace/trace.js';
import type { Selector } from '../../signals/promql/ast.js';
import { labelRegexMatches } from '../../signals/promql/label-regex.js';
import type { AlertGroup } from '../../signals/alerts/rule.js';
import type { SignalAssertion } from '../signal-assertion-types.js';
import type { AssertionVerdict as Verdict } from './assertions.js';

export interface SignalView {
  readonly now: Micros;
  readonly signals: Signals;
  readonly alerts: AlertTimeline | undefined;
  readonly events: readonly TraceEvent[];
}

export function signalView(events: readonly TraceEvent[], now: Micros, group: AlertGroup | undefined): SignalView {
  const signals = recordSignals(events, now);
  return { now, signals, alerts: group === undefined ? undefined : evaluateAlerts(signals, group, now), events };
}

const s = (us: Micros): string => `${formatSecondsShort(us)} s`;

/** When the key was first deleted, on any member: the moment the lock was lost. */
export function firstDelete(events: readonly TraceEvent[], key: string): Micros | undefined {
  return events.find((e) => e.kind === 'kv-delete' && e.fields.key === key)?.t;
}

function matchesSelector(sel: Selector, name: string, labels: Readonly<Record<string, string>>): boolean {
  if (name !== sel.name) return false;
  return sel.matchers.every((m) => {
    const v = labels[m.label] ?? '';
    const re = () => labelRegexMatches(m.value, v);
    return m.op === '=' ? v === m.value : m.op === '!=' ? v !== m.value : m.op === '=~' ? re() : !re();
  });
}

export function signalVerdict(a: SignalAssertion, view: SignalView | string): Verdict {
  if (typeof view === 'string') return { pass: false, got: view };
  if (a.form === 'metric-value') {
    const values = view.signals.store.series
      .filter((x) => matchesSelector(a.metric.selector, x.name, x.labels))
      .map((x) => valueAt(x, view.now))
      .filter((v): v is number => typeof v === 'number');
    if (values.length === 0) return { pass: false, got: 'no such series is exposed now' };
    const sum = values.reduce((x, y) => x + y, 0);
    const ok = (a.value.min === undefined || sum >= a.value.min) && (a.value.max === undefined || sum <= a.value.max);
    return { pass: ok, got: `${sum}${values.length > 1 ? ` (sum of ${values.length} series)` : ''}` };
  }
  const tl = view.alerts!;
  if (a.form === 'alert-firing') {
    const firing = firingAt(tl, a.alert, view.now);
    const pending = tl.instances.some(
      (i) => i.rule === a.alert && i.firedAt === undefined && i.resolvedAt === undefined,
    );
    const got =
      firing.length > 0
        ? `firing (${firing.length} instance${firing.length > 1 ? 's' : ''}` +
          `, since ${s(Math.min(...firing.map((f) => f.firedAt!)))})`
        : pending
          ? 'pending'
          : 'not firing';
    return { pass: firing.length > 0 === a.firing, got };
  }
  const deleted = firstDelete(view.events, a.key);
  const fired = firstFiring(tl, a.alert);
  if (deleted === undefined)
    return {
      pass: false,
      got: `${a.key} has not been deleted yet${fired === undefined ? '' : `; the alert fired at ${s(fired)}`}`,
    };
  if (fired === undefined || fired > deleted) {
    return {
      pass: false,
      got: `${a.key} deleted at ${s(deleted)}; the alert ${
        fired === undefined ? 'never fired' : `fired only at ${s(fired)}, after it`
      }`,
    };
  }
  return {
    pass: deleted - fired >= a.leadUs,
    got: `fired at ${s(fired)}, ${s(deleted - fired)} before ${a.key} was deleted at ${s(deleted)}`,
  };
}

export function describeSignalAssertion(a: SignalAssertion, lead: (us: Micros) => string): string {
  switch (a.form) {
    case 'alert-firing':
      return `alert ${a.alert} is ${a.firing ? 'firing' : 'not firing'}`;
    case 'alert-lead':
      return `alert ${a.alert} fired at least ${lead(a.leadUs)} before ${a.key} was deleted`;
    case 'metric-value': {
      const { min, max } = a.value;
      const bounds =
        min !== undefined && max !== undefined ? `in [${min}, ${max}]` : min !== undefined ? `>= ${min}` : `<= ${max}`;
      return `metric ${a.metric.text} ${bounds}`;
    }
  }
}
