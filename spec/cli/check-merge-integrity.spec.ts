// `check merge` trusts no report: a repeated or dropped run, a made-up finding class, a counterexample name
// that collides or is empty, an absurd shard count are each refused in one line (exit 2) or made harmless;
// mutated reports (a property test with its seed printed) are refused or read, never a crash.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDigest, type CheckReport, type ReportedRun } from '../../src/cli/check/check-report.js';
import { readReport } from '../../src/cli/check/read-report.js';
import { cli } from '../../src/cli/cli.js';
import { CliError } from '../../src/cli/errors.js';
import { bufferIO } from '../../src/cli/io.js';
import { FIXES } from '../../src/switches/fixes.js';
import { fcParams } from '../support/fc.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-merge-integrity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: 'test' });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

let shards: [CheckReport, CheckReport];
let text0 = '';

beforeAll(async () => {
  const got: CheckReport[] = [];
  for (const i of [0, 1]) {
    const file = join(dir, `real-${i}.json`);
    const args = ['check', '--seed', '3', '--runs', '4', '--property', 'grant-bounds', '--workers', '1'];
    expect((await run([...args, '--shard', `${i}/2`, '--reporter', 'json', '--output', file])).code).toBe(0);
    got.push(JSON.parse(readFileSync(file, 'utf8')) as CheckReport);
  }
  shards = got as [CheckReport, CheckReport];
  text0 = readFileSync(join(dir, 'real-0.json'), 'utf8');
}, 120_000);

let n = 0;
/** Writes `r` as a report file, sealed with its digest unless `sealed` is false; returns its path. */
function write(r: CheckReport, sealed = true): string {
  const file = join(dir, `r${n++}.json`);
  writeFileSync(file, JSON.stringify(sealed ? { ...r, digest: reportDigest(r) } : r));
  return file;
}

const FIX = 'confirm-leadership-by-read-index';
const bad = (index: number, file?: string): ReportedRun => ({
  index,
  runSeed: 7,
  steps: 3,
  virtualUs: 9_000_000,
  violation: { property: 'grant-bounds', atUs: 2_000_000, message: 'made up', traceLine: 4 },
  classification: { fixes: [FIX], finding: FIXES[FIX].finding },
  ...(file === undefined ? {} : { counterexample: { file, yaml: `name: run-${index}\n` } }),
});

async function refused(files: string[], message: RegExp, extra: string[] = []): Promise<void> {
  const r = await run(['check', 'merge', ...files, ...extra]);
  expect([r.code, r.out]).toEqual([2, '']);
  expect(r.err.split('\n')).toHaveLength(1);
  expect(r.err).toMatch(message);
}

describe('check merge integrity', () => {
  it('refuses a run listed twice, and a run dropped without the digest agreeing', async () => {
    const [a, b] = shards;
    const twice = write({ ...a, runs: [bad(0), bad(0)] });
    await refused([twice, join(dir, 'real-1.json')], /runs should list each run once, by index \(run 0 after 0\)$/);
    const withBad = { ...a, runs: [bad(1)] };
    const dropped = write({ ...withBad, digest: reportDigest(withBad), runs: [] } as CheckReport, false);
    await refused([dropped, write(b)], /digest does not match its runs: the report was edited or damaged/);
  });

  it('refuses a made-up finding class, so --allow-known cannot be fooled into exit 0', async () => {
    const [a, b] = shards;
    const fake = { ...bad(1), classification: { fixes: [FIX], finding: 'totally-fine' } } as unknown as ReportedRun;
    await refused(
      [write({ ...a, runs: [fake] }), write(b)],
      /classification\.finding is not the class of its first fix/,
      ['--allow-known'],
    );
    const none = { ...bad(1), classification: { fixes: [], finding: FIXES[FIX].finding } };
    await refused([write({ ...a, runs: [none] }), write(b)], /is not the class of its first fix/);
  });

  it('names merged counterexamples itself: colliding names stay apart, an empty one never becomes --out', async () => {
    const [a, b] = shards;
    const out = join(dir, 'cx');
    const merged = await run([
      'check',
      'merge',
      write({ ...a, runs: [bad(0, 'same.yaml'), bad(1, 'same.yaml')] }),
      write({ ...b, runs: [bad(2, 'same.yaml')] }),
      '--out',
      out,
    ]);
    expect(merged.code).toBe(1);
    expect(readdirSync(out).sort()).toEqual([
      'check-3-0-grant-bounds.yaml',
      'check-3-1-grant-bounds.yaml',
      'check-3-2-grant-bounds.yaml',
    ]);
    expect(readFileSync(join(out, 'check-3-1-grant-bounds.yaml'), 'utf8')).toBe('name: run-1\n');
    for (const file of ['', '../escape.yaml', '/etc/passwd', 'a/./b.yaml']) {
      const out2 = join(dir, `cx-${n}`);
      await refused([write({ ...a, runs: [bad(0, file)] }), write(b)], /counterexample\.file should be a path inside/, [
        '--out',
        out2,
      ]);
      expect(existsSync(out2) && statSync(out2).isFile()).toBe(false);
    }
  });

  it('refuses absurd shard counts and seeds in a small file, at once', async () => {
    const [a] = shards;
    for (const count of [2 ** 32, 60_000_000]) {
      const r = { ...a, shard: { index: 0, count } };
      await refused([write(r)], /shard should be \{index, count\} with index < count <= 10000$/);
    }
    await refused([write({ ...a, campaign: { ...a.campaign, seed: 2 ** 53 } })], /seed should be an integer up to/);
    await refused(
      [write({ ...a, campaign: { ...a.campaign, bugs: ['x; touch /tmp/p'] } })],
      /bugs should be a list of bug names/,
    );
  });

  it('reads a mutated report or refuses it in one line, never crashes (property)', () => {
    const lines = text0.split('\n');
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('char' as const), at: fc.nat(), c: fc.string({ unit: 'binary', maxLength: 3 }) }),
      fc.record({
        kind: fc.constant('number' as const),
        at: fc.nat(),
        v: fc.constantFrom('-1', '1e309', '4294967296', '0.5', 'null'),
      }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        let ls = [...lines];
        for (const m of ms) {
          const i = m.at % ls.length;
          if (m.kind === 'delete') ls.splice(i, 1);
          else if (m.kind === 'duplicate') ls.splice(i, 0, ls[i]!);
          else if (m.kind === 'char') {
            const t = ls.join('\n');
            const k = m.at % (t.length + 1);
            ls = (t.slice(0, k) + m.c + t.slice(k + 1)).split('\n');
          } else ls[i] = ls[i]!.replace(/\d+/, m.v);
        }
        const file = join(dir, 'fuzz.json');
        writeFileSync(file, ls.join('\n'));
        try {
          readReport(file);
        } catch (e) {
          expect(e).toBeInstanceOf(CliError);
          expect((e as CliError).exitCode).toBe(2);
          expect((e as Error).message.split('\n')).toHaveLength(1);
        }
      }),
      fcParams(Number(process.env.LESSOR_SIM_FUZZ_RUNS ?? 300)),
    );
  });
});
