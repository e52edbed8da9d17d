// A failing property's shrunk counterexample is a scenario file: written to disk, parsed by the CLI's
// loader and replayed, its expect fails and the same violation comes back; `lessor-sim run` exits 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/cli/load.js';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { BUG_FAMILIES, checkScenario, findCounterexample, type FamilyName } from '../../src/properties/index.js';
import { fcParams } from '../support/fc.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-cx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function found(family: FamilyName) {
  const cx = findCounterexample({ runs: BUG_FAMILIES[family].arb(true) }, fcParams(50), { name: `cx-${family}` });
  if (cx === undefined) throw new Error(`no counterexample for ${family}`);
  return cx;
}

describe('counterexamples', () => {
  // One family per kind of expect: a lease read, a leader check, a lock key read, and a probe step.
  for (const family of [
    'renew-expired-lease',
    'ttl-on-demoted-lessor',
    'lock-skips-post-wait-check',
    'no-checkpoint-schedule-on-promote',
  ] as const) {
    it(`of ${family} replay from the file to the same violation and a failing expect`, () => {
      const cx = found(family);
      expect(cx.expect, cx.yaml).toBeDefined();
      const file = join(dir, `${family}.yaml`);
      writeFileSync(file, cx.yaml);
      const loaded = loadScenario(file, BUG_NAMES);
      if (!loaded.ok) throw new Error(loaded.messages.join('\n'));
      const replay = checkScenario(loaded.scenario, { properties: [cx.violation.property] });
      const failed = replay.result.assertions.filter((a) => !a.passed).map((a) => a.step.pos.line);
      expect(failed).toEqual([cx.expectLine]);
      expect(replay.violation?.property).toBe(cx.violation.property);
      expect(replay.violation?.atUs).toBe(cx.violation.atUs);
      expect(replay.violation?.message).toBe(cx.violation.message);
    });
  }

  it('make `lessor-sim run FILE` exit 1 with the expect reported as failing', () => {
    const cx = found('renew-expired-lease');
    const file = join(dir, 'cli.yaml');
    writeFileSync(file, cx.yaml);
    const root = resolve(__dirname, '../..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'run', file, '--quiet'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAIL/);
    expect(r.stdout).toContain(`FAIL  ${file}:${cx.expectLine} `);
  });

  it('say in comments which property broke, when and where', () => {
    const cx = found('renew-expired-lease');
    expect(cx.yaml).toMatch(/^# Counterexample for property no-early-expiry \(bug catalogue §K K1\)/);
    expect(cx.yaml).toContain(`  # no-early-expiry: ${cx.violation.message}`);
  });
});
