/** The assertion table's entries for signals (alerts and metrics), kept beside the rest of the table. */
import { parsePromQL } from '../signals/promql/parse.js';
import { checkMetricNames } from './alerts-section.js';
import { INVALID, mismatch, reject, type Codec } from './codec.js';
import { bool, duration, range, text } from './codecs.js';
import { def, req, type FieldsFor } from './fields.js';
import { quote } from './node.js';
import { didYouMean } from './suggest.js';
import type { AlertFiringAssertion, AlertLeadAssertion, MetricValueAssertion } from './signal-assertion-types.js';

const key = text('a key such as /locks/payment-42', { anyScalar: true });

type Fields<T> = FieldsFor<Omit<T, 'form' | 'pos'>>;

const alertNameText = text('an alert name');

/** The name of a rule in the file's `alerts` section (decoded before the steps). */
const alertRef: Codec<string> = {
  ...alertNameText,
  decode(node, ctx) {
    const name = alertNameText.decode(node, ctx);
    if (name === INVALID || ctx.alerts.has(name)) return name;
    const known = [...ctx.alerts];
    const defined =
      known.length > 0 ? `the alerts section defines: ${known.join(', ')}` : 'the file has no alerts section';
    return reject(ctx, node, `no alert rule named ${quote(name)}; ${defined}${didYouMean(name, known)}`);
  },
};

const number: Codec<number> = {
  expected: 'a number',
  schema: { type: 'number' },
  decode(node, ctx) {
    const v = node.kind === 'scalar' ? node.value : null;
    if (typeof v === 'bigint') return Number(v);
    return typeof v === 'number' && Number.isFinite(v) ? v : mismatch(ctx, node, 'a number');
  },
};

/** A metric selector such as `etcd_lease_renewal_failures_total{client="c1"}`. */
const metricSelector: Codec<MetricValueAssertion['metric']> = {
  expected: 'a metric selector such as etcd_server_has_leader{member="n1"}',
  schema: { type: 'string', minLength: 1 },
  decode(node, ctx) {
    if (node.kind !== 'scalar' || typeof node.value !== 'string') return mismatch(ctx, node, this.expected);
    const p = parsePromQL(node.value);
    if (!p.ok) return reject(ctx, node, `metric does not parse: ${p.message}`);
    if (p.expr.kind !== 'selector' || p.expr.offsetUs !== 0)
      return reject(ctx, node, `expected ${this.expected}, without functions or offset`);
    return checkMetricNames(p.expr, node, ctx) ? { text: node.value, selector: p.expr } : INVALID;
  },
};

export const SIGNAL_FORMS = {
  'alert-firing': {
    description:
      'Extension: some instance of the alert (a rule of the alerts ' +
      'section) is firing / none is, by the last rule evaluation.',
    fields: {
      alert: req('alert', alertRef, 'Name of a rule in the alerts section.'),
      firing: req('firing', bool, 'Whether the alert is firing.'),
    } satisfies Fields<AlertFiringAssertion>,
  },
  'alert-lead': {
    description:
      'Extension: the alert first fired at least `lead` before the key was first deleted (the loss it warns of).',
    fields: {
      alert: req('alert', alertRef, 'Name of a rule in the alerts section.'),
      key: req('fired-before-delete-of', key, 'The key whose deletion (revoke or delete) is the loss.'),
      leadUs: def('lead', duration(), 0, 'How long before the deletion the alert must have fired; default 0s.'),
    } satisfies Fields<AlertLeadAssertion>,
  },
  'metric-value': {
    description: 'Extension: the sum of the series the selector picks, at this instant, is within bounds.',
    fields: {
      metric: req(
        'metric',
        metricSelector,
        'A metric selector such as etcd_lease_renewal_failures_total{client="c1"}.',
      ),
      value: req('value', range(number, 'metric value bounds'), 'Bounds: { min, max }, either optional.'),
    } satisfies Fields<MetricValueAssertion>,
  },
};
