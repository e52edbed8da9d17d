// Our alert evaluation checked against Prometheus itself: each run's scraped series and rules become a
// `promtool test rules` file whose expected alerts are the ones we found firing at every evaluation.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import { evaluateAlerts } from '../../src/signals/alerts/evaluate.js';
import { promtoolFiles } from '../../src/signals/alerts/promtool-file.js';
import type { AlertGroup, AlertRule } from '../../src/signals/alerts/rule.js';
import { parsePromQL } from '../../src/signals/promql/parse.js';
import { scrape } from '../../src/signals/sample.js';
import type { RunResult } from '../../src/scenario/replay/runner.js';
import { HAVE_PROMTOOL, promtool, replay, ROOT, signalsOf } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-promtool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WITH_RULES = readdirSync(join(ROOT, 'scenarios/signals'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `scenarios/signals/${f}`);

function check(
  name: string,
  r: RunResult,
  group: AlertGroup,
  spoil = false,
): { code: number; out: string; firing: number } {
  const s = signalsOf(r);
  const tl = evaluateAlerts(s, group);
  const files = promtoolFiles(scrape(s.store, group.scrapeIntervalUs, r.scenario.durationUs), tl, `${name}.rules.yml`);
  let test = files.test;
  if (spoil) {
    // Claim one firing alert was not firing: promtool must disagree.
    const t = JSON.parse(test) as { tests: { alert_rule_test: { exp_alerts: unknown[] }[] }[] };
    const firing = t.tests[0]!.alert_rule_test.find((a) => a.exp_alerts.length > 0)!;
    firing.exp_alerts = [];
    test = JSON.stringify(t);
  }
  writeFileSync(join(dir, `${name}.rules.yml`), files.rules);
  writeFileSync(join(dir, `${name}.test.yml`), test);
  return {
    ...promtool(['test', 'rules', `${name}.test.yml`], undefined, dir),
    firing: tl.instances.filter((a) => a.firedAt !== undefined).length,
  };
}

/** Rules exercising every supported construct, for scenarios with crashes, pauses and leader changes. */
const STRESS: readonly string[] = [
  'etcd_server_has_leader == 0',
  'rate(etcd_server_leader_changes_seen_total[20s] offset 2s) > 0',
  'increase(etcd_debugging_lease_renewed_total[7s]) < 1 and on(member) etcd_server_is_leader == 1',
  'avg_over_time(etcd_server_has_leader[4s]) < 1 and count_over_time(etcd_server_has_leader[1m]) > 3',
  'resets(etcd_debugging_lease_granted_total[1m]) > 0 or -absent(etcd_server_has_leader{member="n1"}) < 0',
  'sum by (member) (increase(etcd_debugging_lease_ttl_total_bucket{le="16"}[30s])) >= 1',
  'max_over_time(up[10s]) - min_over_time(up[10s]) > 0 unless up == 0',
  'changes(etcd_lease_renewal_failures_total[1m]) > 0 or delta(etcd_debugging_lease_revoked_total[5s]) > bool 0 == 1',
];

function stressGroup(): AlertGroup {
  const rules: AlertRule[] = STRESS.map((exprText, i) => {
    const p = parsePromQL(exprText);
    if (!p.ok) throw new Error(p.message);
    return { name: `Stress${i}`, exprText, expr: p.expr, forUs: seconds(i % 3), labels: { n: String(i) } };
  });
  return { intervalUs: seconds(1), scrapeIntervalUs: seconds(1), rules };
}

describe.skipIf(!HAVE_PROMTOOL)('promtool test rules agrees with our firing times', () => {
  it('has library scenarios with rules', () => {
    expect(WITH_RULES.length).toBeGreaterThanOrEqual(3);
  });

  it.each(WITH_RULES)('%s', (file) => {
    const r = replay(file);
    const res = check(file.replace(/\W/g, '_'), r, r.scenario.alerts!);
    expect(res.out).toMatch(/SUCCESS/);
    expect(res.code).toBe(0);
    expect(res.firing).toBeGreaterThan(0);
  });

  it.each([
    'scenarios/promote-demote-timeline.yaml',
    'scenarios/checkpoint-on-leader-change.yaml',
    'scenarios/signals/frozen-leader-renewals.yaml',
    'scenarios/seed-runbook.yaml',
  ])('on every construct over %s', (file) => {
    const res = check(`stress_${file.replace(/\W/g, '_')}`, replay(file), stressGroup());
    expect(res.out).toMatch(/SUCCESS/);
    expect(res.code).toBe(0);
    expect(res.firing).toBeGreaterThan(2);
  });

  it('and the check can fail: promtool refuses a firing alert we claim was quiet', () => {
    const r = replay('scenarios/signals/frozen-leader-renewals.yaml');
    const res = check('spoilt', r, r.scenario.alerts!, true);
    expect(res.code).not.toBe(0);
    expect(res.out).toMatch(/FAILED/);
  });
});
