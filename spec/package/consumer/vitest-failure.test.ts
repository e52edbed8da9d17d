// lessor-sim/vitest from the installed package: a property that fails (a historical bug switched on)
// writes its counterexample file and ends its message with the replay commands; the package test then
// replays the file with the installed command.
import { existsSync } from 'node:fs';
import { checkLeaseRuns } from 'lessor-sim/vitest';
import { expect, test } from 'vitest';

test('a failing lease property writes its counterexample and says how to replay it', () => {
  expect(() =>
    checkLeaseRuns('a bug switch on', {
      setup: { members: [3], checkpoint: true, bugs: ['no-leadership-check-on-revoke'] },
      workload: { ttl: { min: 3, max: 10 } },
      properties: ['no-early-expiry', 'single-acting-primary'],
      numRuns: 20,
      timeout: 60_000,
    }),
  ).toThrow(/\n {2}npx lessor-sim run counterexamples\/a-bug-switch-on\.yaml +# exits 1/);
  expect(existsSync('counterexamples/a-bug-switch-on.yaml')).toBe(true);
}, 60_000);
