// A historical bug switched on, a counterexample found, shrunk, and printed as a scenario file that the
// package's own parser and runner take back — failing at the expect the counterexample wrote.
import { parseScenario, runScenario } from 'lessor-sim';
import { findCounterexample } from 'lessor-sim/properties';
import { expect, test } from 'vitest';

test('a counterexample is shrunk and printed as a scenario that fails on replay', () => {
  const cx = findCounterexample(
    {
      setup: { members: [3], checkpoint: true, bugs: ['no-leadership-check-on-revoke'] },
      workload: { ttl: { min: 3, max: 10 }, weights: { revoke: 0, delete: 0 } },
      faults: {
        weights: {
          'transfer-leader': 3,
          crash: 1,
          restart: 1,
          'stall-raft': 2,
          partition: 0,
          heal: 0,
          'pause-member': 0,
          'pause-client': 0,
          'stall-apply': 0,
          clock: 0,
        },
      },
      properties: ['no-early-expiry', 'single-acting-primary'],
    },
    { numRuns: 300, seed: 20261129 },
  );
  expect(cx).toBeDefined();
  if (cx === undefined) return;
  console.log(cx.yaml);
  expect(cx.yaml).toContain('# Replay: npx lessor-sim run FILE');
  const parsed = parseScenario(cx.yaml, 'cx.yaml');
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  const failed = runScenario(parsed.scenario)
    .assertions.filter((a) => !a.passed)
    .map((a) => a.step.pos.line);
  expect(failed).toEqual(cx.expectLine === undefined ? [] : [cx.expectLine]);
}, 120_000);
