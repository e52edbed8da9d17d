// Every counterexample replays to a failure with the command its header gives: `run FILE` when an expect
// shows the violation, `check FILE --property P` (the monitors judging one file) when none does. One
// counterexample per bug family, written to disk and replayed through the command line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';
import { checkRun, counterexampleOf } from '../../src/properties/index.js';
import { BUG_FAMILIES, type FamilyName } from '../../src/properties/families/bug-families.js';

const ROOT = resolve(__dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const dir = mkdtempSync(join(tmpdir(), 'lessor-check-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: VERSION });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('a counterexample replays to a failure with the command its header gives', () => {
  const forms: string[] = [];
  for (const name of Object.keys(BUG_FAMILIES) as FamilyName[]) {
    it(`${name}`, async () => {
      const runs = fc.sample(BUG_FAMILIES[name].arb(true), { seed: 42, numRuns: 20 });
      const failing = runs.find((r) => checkRun(r).violation !== undefined);
      expect(failing, 'the family found nothing in 20 runs').toBeDefined();
      const file = join(dir, `${name}.yaml`);
      const cx = counterexampleOf(failing!, undefined, { file })!;
      writeFileSync(file, cx.yaml);
      const replay = /^# Replay: npx lessor-sim (.*?) \(exits 1/m.exec(cx.yaml)?.[1];
      expect(replay, cx.yaml.slice(0, 800)).toBeDefined();
      const argv = replay!.split(' ').map((w) => (w === 'FILE' ? file : w));
      const r = await run(argv);
      expect(r.code, `${replay}\n${r.out}\n${r.err}`).toBe(1);
      if (cx.expect === undefined) {
        forms.push('check');
        expect(argv[0]).toBe('check');
        expect(r.out).toMatch(new RegExp(`^VIOLATED {2}${cx.violation.property} at `, 'm'));
        expect(r.out.split('\n').at(-1)).toBe('1 file: 0 held, 1 violated');
        // What the header warns of: no expect fails, so run alone passes.
        expect((await run(['run', file, '--quiet'])).code).toBe(0);
      } else {
        forms.push('run');
        expect(r.out).toMatch(new RegExp(`^FAIL {2}.*:${cx.expectLine} `, 'm'));
      }
    });
  }
  it('covers both forms', () => {
    expect(new Set(forms)).toEqual(new Set(['run', 'check']));
  });
});

describe('check FILE...', () => {
  it('holds for a library file and exits 0, with the properties it judged', async () => {
    const r = await run(['check', 'scenarios/seed-runbook.yaml', '--property', 'no-early-expiry,grant-bounds']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out.split('\n')).toEqual([
      '== scenarios/seed-runbook.yaml: 2 properties',
      'HELD  no-early-expiry, grant-bounds',
      '1 file: 1 held, 0 violated',
    ]);
  });

  it('refuses campaign flags and unknown properties with exit 2 before anything runs', async () => {
    const r = await run(['check', 'scenarios/seed-runbook.yaml', '--runs', '5']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--runs applies to a campaign; check FILE... takes only --property');
    expect((await run(['check', 'scenarios/seed-runbook.yaml', '--property', 'nope'])).code).toBe(2);
  });

  it('ends a judged file past --max-events as stopped, exit 3', async () => {
    const r = await run(['check', 'scenarios/seed-runbook.yaml', '--max-events', '500']);
    expect(r.code).toBe(3);
    expect(r.out.split('\n').at(-1)).toBe('1 file: 0 held, 0 violated, 1 stopped');
  });
});
