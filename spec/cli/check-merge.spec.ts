// `lessor-sim check merge`: shard reports of one campaign join into its summary and exit code; a set of
// reports that is not every shard of one campaign exactly once is refused in one line with exit 2, and so is
// a file that is not a report. The 4-process comparison with a single-process campaign is shard-processes.spec.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDigest, type CheckReport, type ReportedRun } from '../../src/cli/check/check-report.js';
import { cli } from '../../src/cli/cli.js';
import { FIXES } from '../../src/switches/fixes.js';
import { bufferIO } from '../../src/cli/io.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: 'test' });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const CAMPAIGN = ['check', '--seed', '3', '--runs', '5', '--property', 'grant-bounds', '--workers', '1'];
const reports: CheckReport[] = [];

/** Writes `r` (with its digest, as check writes it) as the only report in a fresh folder `name`; returns the folder. */
function shardDir(name: string, r: CheckReport | string): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'report.json'), typeof r === 'string' ? r : JSON.stringify({ ...r, digest: reportDigest(r) }));
  return d;
}

beforeAll(async () => {
  for (const i of [0, 1]) {
    const d = join(dir, `real-${i}`);
    mkdirSync(d);
    const file = join(d, 'shard.json');
    const r = await run([...CAMPAIGN, '--shard', `${i}/2`, '--reporter', 'json', '--output', file]);
    expect(r.code).toBe(0);
    reports.push(JSON.parse(readFileSync(file, 'utf8')) as CheckReport);
  }
}, 120_000);

const KNOWN = FIXES['confirm-leadership-by-read-index'].finding;
const violation = (index: number, finding: string | undefined): ReportedRun => ({
  index,
  runSeed: 7,
  steps: 3,
  virtualUs: 9_000_000,
  violation: { property: 'grant-bounds', atUs: 2_000_000, message: 'a made-up violation', traceLine: 4 },
  classification:
    finding === undefined
      ? { fixes: [], finding: undefined }
      : { fixes: ['confirm-leadership-by-read-index'], finding },
});

describe('lessor-sim check merge', () => {
  it('joins the shards of a campaign into its summary, in any order of folders', async () => {
    const whole = await run([...CAMPAIGN]);
    const merged = await run(['check', 'merge', join(dir, 'real-1'), join(dir, 'real-0')]);
    expect(whole.code).toBe(0);
    expect(merged.code).toBe(0);
    expect(merged.out).toBe(whole.out);
    expect(merged.out.split('\n')[0]).toBe('5 runs (indices 0..4), 0 with a violation');
    expect(reports.map((r) => [r.shard.index, r.ran])).toEqual([
      [0, [[0, 1]]],
      [1, [[2, 4]]],
    ]);
    expect(merged.err).toContain('2 shards of campaign seed 3, 5 runs');
  }, 60_000);

  it('exits as the campaign would: 1 on a violation, 0 with --allow-known if all are known, 3 on a stop', async () => {
    const [a, b] = reports as [CheckReport, CheckReport];
    const known = shardDir('known', { ...b, runs: [violation(3, KNOWN)] });
    const plain = await run(['check', 'merge', join(dir, 'real-0'), known]);
    expect(plain.code).toBe(1);
    expect(plain.out).toContain('  run 3 (run seed 7): grant-bounds at 2.000000 s, trace line 4: a made-up violation');
    expect(plain.out).toContain('--out DIR   (to shrink and write counterexamples)');
    expect((await run(['check', 'merge', join(dir, 'real-0'), known, '--allow-known'])).code).toBe(0);
    const unexplained = shardDir('unexplained', { ...a, runs: [violation(1, undefined)] });
    expect((await run(['check', 'merge', unexplained, known, '--allow-known'])).code).toBe(1);
    const stop = { reason: 'max-events', atUs: 1000, events: 500, message: 'passed its budget of 500 events' };
    const stopped = shardDir('stopped', {
      ...a,
      runs: [{ index: 0, runSeed: 1, steps: 2, virtualUs: 5, stopped: stop }],
    });
    const s = await run(['check', 'merge', stopped, join(dir, 'real-1')]);
    expect(s.code).toBe(3);
    expect(s.out).toContain('5 runs (indices 0..4), 0 with a violation, 1 stopped');
  });

  it('merges what time-budgeted shards ran, and the interleaved shares of an unbounded campaign', async () => {
    const [a, b] = reports as [CheckReport, CheckReport];
    const budget = { ...a.campaign, timeBudgetUs: 60_000_000 };
    const cut = await run([
      'check',
      'merge',
      shardDir('budget-0', { ...a, campaign: budget, ran: [[0, 0]] }),
      shardDir('budget-1', { ...b, campaign: budget, ran: [[2, 3]] }),
    ]);
    expect(cut.code).toBe(0);
    expect(cut.out.split('\n')[0]).toBe('3 runs (indices 0..3), 0 with a violation');
    expect(cut.out).toContain('reproduce: lessor-sim check --seed 3 --runs 5 --time-budget 1m --property grant-bounds');
    const open = { ...a.campaign, runs: null, timeBudgetUs: 60_000_000 };
    const even = shardDir('open-0', {
      ...a,
      campaign: open,
      ran: [
        [0, 0],
        [2, 2],
        [4, 4],
      ],
    });
    const odd = shardDir('open-1', {
      ...b,
      campaign: open,
      ran: [
        [1, 1],
        [3, 3],
      ],
    });
    const merged = await run(['check', 'merge', even, odd]);
    expect(merged.code).toBe(0);
    expect(merged.out.split('\n')[0]).toBe('5 runs (indices 0..4), 0 with a violation');
    const wrong = await run(['check', 'merge', even, shardDir('open-bad', { ...b, campaign: open, ran: [[2, 2]] })]);
    expect([wrong.code, wrong.err]).toEqual([2, expect.stringMatching(/lists runs 2\.\.2, outside its share/)]);
  });

  it('refuses shards missing, twice, of another campaign or unfinished, in one line with exit 2', async () => {
    const [a, b] = reports as [CheckReport, CheckReport];
    const cases: [string[], RegExp][] = [
      [[join(dir, 'real-0')], /^lessor-sim: check merge: missing shard 1\/2 \(have 0\)$/],
      [[join(dir, 'real-0'), join(dir, 'real-0', 'shard.json'), join(dir, 'real-1')], /shard 0\/2 twice: /],
      [
        [join(dir, 'real-0'), shardDir('seed', { ...b, campaign: { ...b.campaign, seed: 4 } })],
        /are from different campaigns: --seed 3 and 4$/,
      ],
      [
        [join(dir, 'real-0'), shardDir('bugs', { ...b, campaign: { ...b.campaign, bugs: ['renew-expired-lease'] } })],
        /different campaigns: --bugs none and renew-expired-lease$/,
      ],
      [
        [join(dir, 'real-0'), shardDir('version', { ...b, campaign: { ...b.campaign, version: '9.9.9' } })],
        /different campaigns: lessor-sim version [\d.]+ and 9\.9\.9$/,
      ],
      [[join(dir, 'real-0'), shardDir('count', { ...b, shard: { index: 1, count: 3 } })], /a shard of 3$/],
      [
        [join(dir, 'real-0'), shardDir('short', { ...b, ran: [[2, 3]] })],
        /ran 2 of the 3 runs of its share \(2\.\.4\); it did not finish$/,
      ],
      [[join(dir, 'real-0'), shardDir('outside', { ...b, ran: [[1, 4]] })], /lists runs 1\.\.4, outside its share/],
      [
        [shardDir('ghost', { ...a, runs: [violation(4, undefined)] }), join(dir, 'real-1')],
        /reports run 4, which it did not run$/,
      ],
      [
        [join(dir, 'real-0'), shardDir('notjson', '{ "format": "lessor-sim check report", ')],
        /report\.json: not JSON$/,
      ],
      [
        [join(dir, 'real-0'), shardDir('damaged', { ...b, ran: 'all' } as unknown as CheckReport)],
        /report\.json: ran should be a list of \[first, last\] ranges$/,
      ],
      [
        [join(dir, 'real-0'), shardDir('later', { ...b, formatVersion: 3 } as unknown as CheckReport)],
        /formatVersion 3; this lessor-sim reads 2$/,
      ],
      [[join(dir, 'nothing-here')], /nothing-here: no such file or folder$/],
      [[shardDir('other', '{"some": "json"}')], /other: holds no check report/],
      [[dir], /holds no check report .*; to merge its subfolders, name them: .*\/\*$/],
    ];
    for (const [args, message] of cases) {
      const r = await run(['check', 'merge', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
  });

  it('has its own help and flags, and refuses others before reading anything', async () => {
    const help = await run(['help', 'check', 'merge']);
    expect(help.code).toBe(0);
    expect(await run(['check', 'merge', '--help'])).toEqual(help);
    expect(help.out.split('\n')[0]).toBe(
      'usage: lessor-sim check merge DIR... [--allow-known] [--out DIR] [--reporter junit|json] [--output FILE]',
    );
    expect(help.out).toContain('exit codes:');
    expect((await run(['help', 'check'])).out).toContain('usage: lessor-sim check merge DIR...');
    expect((await run(['help'])).out).toMatch(/^ {2}check merge +join the JSON reports/m);
    for (const bad of [['--runs', '5', join(dir, 'real-0')], [], ['--reporter', 'xml', '--output', 'x', 'd']]) {
      const r = await run(['check', 'merge', ...bad]);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.err).toContain('usage: lessor-sim check merge DIR...');
    }
    expect(
      (await run(['check', 'merge', join(dir, 'real-0'), '--out', join(dir, 'real-0', 'shard.json')])).err,
    ).toMatch(/is a file; name a directory/);
  });
});
