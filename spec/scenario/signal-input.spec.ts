// Bad alert rules and signal expects: each error at its file position, with the parser's message or
// a "did you mean" for a metric or alert nobody defines.
import { describe, expect, it } from 'vitest';
import { formatError } from '../../src/scenario/parse.js';
import { errorsOf, lines, onlyError, parsed } from './support.js';

const withRules =
  (...rules: string[]) =>
  (...steps: string[]) =>
    lines('name: t', 'alerts:', '  rules:', ...rules.map((r) => `    ${r}`), 'steps:', ...steps.map((s) => `  ${s}`));

const fine = withRules(
  '- alert: Failures',
  '  expr: increase(etcd_lease_renewal_failures_total[1m]) >= 3',
  '  for: 10s',
  '  labels: { severity: page }',
);

describe('alerts section', () => {
  it('reads a rule group with its defaults', () => {
    const s = parsed(fine('- at: 1s', '  expect: { alert: Failures, firing: false }'));
    expect(s.alerts).toMatchObject({ intervalUs: 1_000_000, scrapeIntervalUs: 1_000_000 });
    expect(s.alerts!.rules[0]).toMatchObject({ name: 'Failures', forUs: 10_000_000, labels: { severity: 'page' } });
  });

  it("gives a rule that does not parse its position and lezer-promql's message", () => {
    const e = onlyError(
      withRules('- alert: A', '  expr: rate(up[1m]) >')('- at: 1s', '  expect: { alert: A, firing: true }'),
    );
    expect(formatError(e)).toBe(
      'scenarios/test.yaml:5:13: expr does not parse: lezer-promql: ' +
        'syntax error at character 15: unexpected end of expression',
    );
  });

  it('refuses functions outside the evaluated subset by name', () => {
    const e = onlyError(
      withRules('- alert: A', '  expr: histogram_quantile(0.9, up)')(
        '- at: 1s',
        '  expect: { alert: A, firing: true }',
      ),
    );
    expect(e.message).toMatch(/function histogram_quantile\(\) is not in the PromQL subset/);
  });

  it('suggests the metric a rule meant', () => {
    const e = onlyError(
      withRules('- alert: A', '  expr: increase(etcd_lease_renewal_failure_total[1m]) > 0')(
        '- at: 1s',
        '  expect: { alert: A, firing: true }',
      ),
    );
    expect(formatError(e)).toBe(
      'scenarios/test.yaml:5:13: no component emits metric "etcd_lease_renewal_failure_total" ' +
        'at character 10 (did you mean "etcd_lease_renewal_failures_total"?)',
    );
  });

  it('refuses a duplicate alert, a reserved label and a sub-millisecond interval', () => {
    const text = lines(
      'name: t',
      'alerts:',
      '  interval: 1500us',
      '  rules:',
      '    - { alert: A, expr: up == 0 }',
      '    - { alert: A, expr: up == 1, labels: { alertname: x } }',
      'steps:',
      '  - at: 1s',
      '    expect: { alert: A, firing: false }',
    );
    const messages = errorsOf(text).map(formatError);
    expect(messages).toEqual([
      expect.stringMatching(/^scenarios\/test\.yaml:3:13: interval must be whole milliseconds/),
      expect.stringMatching(/^scenarios\/test\.yaml:6:7: alert "A" is defined twice/),
      expect.stringMatching(/^scenarios\/test\.yaml:6:44: "alertname" is not a label a rule may set/),
    ]);
  });
});

describe('signal expects', () => {
  it('suggest the alert an expect meant', () => {
    const e = onlyError(fine('- at: 1s', '  expect: { alert: Failure, firing: true }'));
    expect(formatError(e)).toBe(
      'scenarios/test.yaml:10:22: no alert rule named "Failure"; the ' +
        'alerts section defines: Failures (did you mean "Failures"?)',
    );
  });

  it('say when there is no alerts section', () => {
    const e = onlyError(lines('name: t', 'steps:', '  - at: 1s', '    expect: { alert: A, firing: true }'));
    expect(e.message).toBe('no alert rule named "A"; the file has no alerts section');
  });

  it('suggest the metric an expect meant', () => {
    const e = onlyError(
      fine('- at: 1s', '  expect: { metric: \'etcd_server_has_leadr{member="n1"}\', value: { min: 1 } }'),
    );
    expect(e.message).toBe(
      'no component emits metric "etcd_server_has_leadr" at character 1 (did you mean "etcd_server_has_leader"?)',
    );
    expect(e.line).toBe(10);
  });

  it('take a selector, not an expression, for a metric value', () => {
    const e = onlyError(fine('- at: 1s', "  expect: { metric: 'rate(up[1m])', value: { min: 1 } }"));
    expect(e.message).toMatch(/^expected a metric selector such as/);
  });

  it('read the lead-time form with its default', () => {
    const s = parsed(fine('- at: 1s', '  expect: { alert: Failures, fired-before-delete-of: /locks/a }'));
    expect(s.steps[0]).toMatchObject({
      assertion: { form: 'alert-lead', alert: 'Failures', key: '/locks/a', leadUs: 0 },
    });
  });
});
