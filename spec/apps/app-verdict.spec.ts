// The exit code of a run with programs under test: the table in src/cli/app-verdict.ts.
import { describe, expect, it } from 'vitest';
import type { AppExit } from '../../src/apps/app-runner.js';
import { appVerdict } from '../../src/cli/app-verdict.js';

const exit = (code: number | null, signal: NodeJS.Signals | null = null, byHarness = false): AppExit => ({
  app: 'holder',
  t: 0,
  code,
  signal,
  byHarness,
});

describe('appVerdict', () => {
  it.each([
    ['all held, program exited 0', true, 0, [exit(0)], undefined, 0],
    [
      'all held, program still running at the end and ended by the harness',
      true,
      0,
      [exit(null, 'SIGKILL', true)],
      undefined,
      0,
    ],
    ['an expect failed, program fine', false, 0, [exit(0)], undefined, 1],
    ['a holder property violated, program fine', true, 1, [exit(0)], undefined, 1],
    ['an expect failed and the program failed: the scenario speaks first', false, 0, [exit(3)], undefined, 1],
    ['all held, the program exited 3', true, 0, [exit(3)], undefined, 5],
    [
      'all held, the program killed by a signal nobody in the harness sent',
      true,
      0,
      [exit(null, 'SIGSEGV')],
      undefined,
      5,
    ],
    ['all held, the run stopped by a guard', true, 0, [exit(0)], true, 3],
    ['the run stopped and a program failed', true, 0, [exit(2)], true, 5],
  ] as const)('%s → %i', (_, expectsPassed, violations, exits, stopped, code) => {
    expect(appVerdict({ expectsPassed, violations, exits, ...(stopped !== undefined ? { stopped } : {}) }).code).toBe(
      code,
    );
  });

  it('names what failed', () => {
    expect(appVerdict({ expectsPassed: true, violations: 0, exits: [exit(3), exit(null, 'SIGSEGV')] }).reason).toBe(
      'holder exited with code 3; holder was killed by SIGSEGV',
    );
    expect(appVerdict({ expectsPassed: false, violations: 2, exits: [] }).reason).toBe(
      'an expect failed; 2 holder properties were violated',
    );
  });
});
