/**
 * The top-level `alerts:` section: one Prometheus rule group (interval, scrape interval, rules with
 * alert, expr, for, labels). Expressions are parsed by lezer-promql while the file is read, so a rule
 * that does not parse, or selects a metric no component emits, is an error at its position.
 */
import { seconds } from '../clock/time.js';
import type { AlertGroup, AlertRule } from '../signals/alerts/rule.js';
import { selectorsOf, type Expr } from '../signals/promql/ast.js';
import { parsePromQL } from '../signals/promql/parse.js';
import { exposedNames } from '../signals/families.js';
import { defaultEmitters, familiesOf } from '../signals/recorder.js';
import { INVALID, mismatch, reject, type Codec } from './codec.js';
import { duration, list, object, text } from './codecs.js';
import type { ParseContext } from './context.js';
import { complete, decodeFields, def, req, type FieldsFor } from './fields.js';
import { quote, type PNode, type PScalar } from './node.js';
import { didYouMean } from './suggest.js';

/** Every metric name some component of the simulation emits. */
export const EMITTED_METRICS: readonly string[] = familiesOf(defaultEmitters()).flatMap(exposedNames);

/** Reports each selector of `expr` whose metric no component emits, with a suggestion. */
export function checkMetricNames(expr: Expr, node: PScalar, ctx: ParseContext): boolean {
  let ok = true;
  for (const s of selectorsOf(expr)) {
    if (EMITTED_METRICS.includes(s.name!)) continue;
    ok = false;
    // The node's text does not say whether it was quoted, so positions are the value's start plus a character.
    ctx.error(
      node.pos,
      `no component emits metric ${quote(s.name!)} at character ${s.at + 1}${didYouMean(s.name!, EMITTED_METRICS)}`,
    );
  }
  return ok;
}

const promql: Codec<{ text: string; expr: Expr }> = {
  expected: 'a PromQL expression',
  schema: { type: 'string', minLength: 1 },
  decode(node: PNode, ctx) {
    if (node.kind !== 'scalar' || typeof node.value !== 'string') return mismatch(ctx, node, 'a PromQL expression');
    const parsed = parsePromQL(node.value);
    if (!parsed.ok) return reject(ctx, node, `expr does not parse: ${parsed.message}`);
    return checkMetricNames(parsed.expr, node, ctx) ? { text: node.value, expr: parsed.expr } : INVALID;
  },
};

const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const labelMap: Codec<Record<string, string>> = {
  expected: 'a map of label names to values',
  schema: { type: 'object', additionalProperties: { type: 'string' } },
  decode(node, ctx) {
    if (node.kind !== 'map') return mismatch(ctx, node, 'a map of label names to values');
    const out: Record<string, string> = {};
    let ok = true;
    for (const e of node.entries) {
      const v = text('a label value', { anyScalar: true, allowEmpty: true }).decode(e.value, ctx);
      if (!labelName.test(e.key) || e.key === 'alertname') {
        ctx.error(e.keyPos, `${quote(e.key)} is not a label a rule may set (a Prometheus label name, not alertname)`);
        ok = false;
      } else if (v === INVALID) ok = false;
      else out[e.key] = v;
    }
    return ok ? out : INVALID;
  },
};

interface RuleFields {
  readonly name: string;
  readonly expr: { text: string; expr: Expr };
  readonly forUs: number;
  readonly labels: Record<string, string>;
}

const alertName = text('an alert name such as RenewalFailures', { pattern: /^[a-zA-Z_:][a-zA-Z0-9_:]*$/ });

const RULE_FIELDS: FieldsFor<RuleFields> = {
  name: req('alert', alertName, 'The alert name.'),
  expr: req('expr', promql, 'PromQL expression; every result alerts (after `for`).'),
  forUs: def('for', duration(), 0, 'How long the expression must hold before the alert fires (pending until then).'),
  labels: def('labels', labelMap, {}, 'Labels added to the alert.'),
};

const ruleFields = object(RULE_FIELDS, 'alert rule');

const rule: Codec<AlertRule> = {
  expected: ruleFields.expected,
  schema: ruleFields.schema,
  decode(node, ctx) {
    if (node.kind !== 'map') return mismatch(ctx, node, ruleFields.expected);
    const d = decodeFields(RULE_FIELDS, node, 'alert rule', ctx);
    const name = d.value.name;
    // A rule with a bad expr still names an alert, so expects that refer to it raise no second error.
    if (name !== undefined && ctx.alerts.has(name)) return reject(ctx, node, `alert ${quote(name)} is defined twice`);
    if (name !== undefined) ctx.alerts.add(name);
    const r = complete(d);
    if (r === INVALID) return r;
    return { name: r.name, exprText: r.expr.text, expr: r.expr.expr, forUs: r.forUs, labels: r.labels };
  },
};

const wholeMs = (where: string): Codec<number> => {
  const d = duration({ positive: true });
  return {
    ...d,
    decode(node, ctx) {
      const v = d.decode(node, ctx);
      if (v === INVALID || v % 1000 === 0) return v;
      return reject(ctx, node, `${where} must be whole milliseconds (Prometheus timestamps are milliseconds)`);
    },
  };
};

const GROUP_FIELDS: FieldsFor<AlertGroup> = {
  intervalUs: def('interval', wholeMs('interval'), seconds(1), "The rule group's evaluation interval."),
  scrapeIntervalUs: def(
    'scrape-interval',
    wholeMs('scrape-interval'),
    seconds(1),
    'How often every member and client is scraped.',
  ),
  rules: req('rules', list(rule), 'Alerting rules: alert, expr, for, labels.'),
};

export const alertsSection: Codec<AlertGroup> = object(GROUP_FIELDS, 'alerts section');
