// lessor-sim/vitest from the sources: leaseTest registers a passing property as a vitest test; a failing
// one prints its seed and path, writes the shrunk run as a scenario file that replays to the failure, and
// ends with the replay commands; the matchers say what failed and where.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUG_FAMILIES } from '../../src/properties/families/bug-families.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario, type RunResult } from '../../src/scenario/replay/runner.js';
import { checkLeaseRuns, leaseTest } from '../../src/vitest/index.js';
import { parsed } from '../scenario/support.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-vitest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

leaseTest('leaseTest registers a vitest test that passes on the fixed model', {
  setup: { members: [3] },
  faults: false,
  maxCommands: 10,
  properties: ['no-early-expiry', 'key-lease-atomicity'],
  numRuns: 5,
});

/** The error a check throws, or a failure of this test when it throws none. */
function thrown(fn: () => void): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the property to fail');
}

describe('a failing leaseTest', () => {
  it('prints seed and path, writes a counterexample that fails on replay, and ends with the replay commands', () => {
    const out = join(dir, 'cx');
    const e = thrown(() =>
      checkLeaseRuns('Renewal of an expired lease!', {
        runs: BUG_FAMILIES['renew-expired-lease'].arb(true),
        numRuns: 20,
        seed: 42,
        out,
        timeout: 60_000,
      }),
    );
    const lines = e.message.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        String.raw`^lease property failed after \d+ of 20 runs, shrunk \d+ times ` +
          String.raw`\(fast-check seed 42; this run again: \{ seed: 42, path: '[\d:]+' \}\):$`,
      ),
    );
    expect(lines[1]).toMatch(/^no-early-expiry violated at \d+\.\d{6} s \(trace line \d+\): lease L\d+ revoked/);
    const file = join(out, 'renewal-of-an-expired-lease.yaml');
    expect(lines[2]).toBe(`counterexample written to ${file}; replay it with:`);
    expect(lines.slice(3).map((l) => l.trim().split(/\s+#/)[0])).toEqual([
      `npx lessor-sim run ${file}`,
      `npx lessor-sim explain ${file}`,
      `npx lessor-sim render ${file} -o ${file.replace(/\.yaml$/, '.html')}`,
    ]);
    const p = parseScenario(readFileSync(file, 'utf8'), file);
    if (!p.ok) throw new Error('the counterexample does not parse');
    const r = runScenario(p.scenario);
    expect(r.passed).toBe(false);
    expect(() => expect(r).toPassScenario()).toThrow(new RegExp(`${file}:\\d+: expected lease L\\d+ `));
  });

  it('gives the check command when no expect form shows the violation', () => {
    const out = join(dir, 'cx2');
    const e = thrown(() =>
      checkLeaseRuns('rate limits', {
        runs: BUG_FAMILIES['no-promote-spreading'].arb(true),
        properties: ['rate-limits'],
        numRuns: 20,
        seed: 42,
        out,
        timeout: 60_000,
      }),
    );
    expect(e.message).toContain(`npx lessor-sim check ${join(out, 'rate-limits.yaml')} --property rate-limits`);
  });

  it('says how to raise the timeout when its runs do not fit in it', () => {
    const e = thrown(() => checkLeaseRuns('slow', { setup: { members: [5] }, numRuns: 100_000, timeout: 300 }));
    expect(e.message).toMatch(
      new RegExp(
        String.raw`^lease property: only \d+ of 100000 runs finished in 240 ms \(80 % of ` +
          String.raw`the 300 ms test timeout; seed 42\): raise the timeout with ` +
          String.raw`leaseTest\(name, \{ timeout: \d+000 \}\)`,
      ),
    );
  });
});

const yaml = (steps: string) => `name: m\ncluster: { members: 3 }\nsteps:\n${steps}`;
const replay = (text: string): RunResult => runScenario(parsed(text));

describe('the matchers', () => {
  const lock = replay(
    yaml(
      '  - { at: 0s, grant: { lease: L1, ttl: 5 } }\n' +
        '  - { at: 0s, put: { key: /locks/a, value: me, lease: L1 } }\n' +
        '  - { at: 7s, expect: { key: /locks/a, exists: true } }\n' +
        '  - { at: 7s, expect: { lease: L1, exists: false } }\n',
    ),
  );

  it('toPassScenario lists each failed assertion with file:line, expected and got', () => {
    expect(() => expect(lock).toPassScenario()).toThrow(
      new RegExp(
        String.raw`expected scenarios\/test\.yaml to pass; 1 problem\(s\):\n {2}scenarios` +
          String.raw`\/test\.yaml:6: expected key \/locks\/a exists \(linearizable read\), got absent\n`,
      ),
    );
    expect(lock).not.toPassScenario();
  });

  it('toHaveEvent finds an event by kind, member, lease label and fields, and shows the kind when none matches', () => {
    expect(lock).toHaveEvent('lease-revoke', { member: 'n1', lease: 'L1' });
    expect(lock).not.toHaveEvent('lease-revoke', { member: 'c1', lease: 'L1' });
    expect(() => expect(lock).toHaveEvent('lease-revoke', { lease: 'L9' })).toThrow(
      new RegExp(
        String.raw`expected a lease-revoke event with lease=L9 in scenarios\/test\.yaml; ` +
          String.raw`the trace has \d+ of that kind, the first:\n {2}\d+\.\d+ n\d lease-revoke `,
      ),
    );
  });

  it('toNeverActAfterLoss names the holder that wrote with a revoked lease, and passes the fixed holder', () => {
    const file = (f: string) => readFileSync(join(__dirname, '../../scenarios/holders', f), 'utf8');
    const buggy = runScenario(parsed(file('fault1-step5-confirm.runbook.yaml')));
    expect(() => expect(buggy).toNeverActAfterLoss()).toThrow(
      new RegExp(
        String.raw`expected no holder to act after losing its lease; \d+ write\(s\) with ` +
          String.raw`a revoked lease:\n {2}holder \S+ wrote at `,
      ),
    );
    expect(runScenario(parsed(file('deadline-clock-jump-within-margin.yaml')))).toNeverActAfterLoss();
  });
});
