// A scenario from a YAML string, replayed through the package's main entry; its trace hash is the same on
// every machine, so it is pinned here.
import { formatError, parseScenario, runScenario, type RunResult } from 'lessor-sim';
import { explain, summary } from 'lessor-sim/report';
import { expect, test } from 'vitest';

const YAML = `
name: consumer-expiry
profile: v3.5
seed: 3
cluster: { members: 3 }
steps:
  - at: 0s
    grant: { lease: L1, ttl: 5 }
  - at: 0s
    put: { key: /svc/a, value: up, lease: L1 }
  - at: 4s
    expect: { key: /svc/a, value: up }
  - at: 7s
    expect: { key: /svc/a, exists: false }
`;

const HASH = '914438c72bfafc416ec36c02e393eda8766f4b2fcc24a59a6129a8176e93245f';

function replay(text: string): RunResult {
  const parsed = parseScenario(text, 'consumer.yaml');
  if (!parsed.ok) throw new Error(parsed.errors.map(formatError).join('\n'));
  return runScenario(parsed.scenario);
}

test('a scenario from a YAML string replays with every assertion passing and its pinned trace hash', () => {
  const r = replay(YAML);
  expect(r.assertions.map((a) => a.passed)).toEqual([true, true]);
  expect(r.trace.hash()).toBe(HASH);
  expect(summary(r).at(-1)).toBe('2 passed, 0 failed');
  expect(explain(r).join('\n')).toMatch(/^L1 \([0-9a-f]+\): granted at /);
});

test('an invalid scenario is a list of positioned errors, not an exception', () => {
  const parsed = parseScenario(YAML.replace('ttl: 5', 'ttl: five'), 'bad.yaml');
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) expect(formatError(parsed.errors[0]!)).toMatch(/^bad\.yaml:8:\d+: /);
});
