// `lessor-sim check`: a run's verdict depends only on (campaign seed, run index) — not on the number of
// worker threads nor on how the campaign is sharded — and the exit code and usage errors are as documented.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import type { CliIO } from '../../src/cli/io.js';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { parseScenario } from '../../src/scenario/parse.js';

const runCheck = (argv: string[], io: CliIO): Promise<number> => cli(['check', ...argv], io, { version: 'test' });

const CAMPAIGN = [
  '--seed',
  '9',
  '--runs',
  '24',
  '--bugs',
  'register-expiry-on-followers',
  '--property',
  'resource-invariants',
];

async function check(extra: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCheck([...CAMPAIGN, ...extra], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    errIsTTY: false,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const failing = (out: string): number[] =>
  [...out.matchAll(/^ {2}run (\d+) \(run seed \d+\): resource-invariants/gm)].map((m) => Number(m[1]));

const dir = mkdtempSync(join(tmpdir(), 'lessor-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lessor-sim check', () => {
  it('finds the same failing runs with 1 worker, 2 workers, and as shards 0/2 + 1/2', async () => {
    const one = await check(['--workers', '1']);
    const two = await check(['--workers', '2']);
    const a = await check(['--workers', '1', '--shard', '0/2']);
    const b = await check(['--workers', '1', '--shard', '1/2']);
    expect(one.code).toBe(1);
    const expected = failing(one.out);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(24);
    expect(failing(two.out)).toEqual(expected);
    expect([...failing(a.out), ...failing(b.out)]).toEqual(expected);
    expect(failing(a.out).every((i) => i < 12) && failing(b.out).every((i) => i >= 12)).toBe(true);
    expect(one.out).toContain(
      'reproduce: lessor-sim check --seed 9 --runs 24 --property ' +
        'resource-invariants --bugs register-expiry-on-followers',
    );
    // stdout depends on the campaign alone; how fast it ran is on stderr.
    expect(two.out).toBe(one.out);
    expect(a.err).toContain('shard 0/2 (runs 0..11)');
    expect(b.out).toContain('--shard 1/2');
  });

  it('writes each failing run as a shrunk scenario file with --out', async () => {
    const r = await check(['--workers', '2', '--runs', '4', '--out', dir]);
    expect(r.code).toBe(1);
    const files = readdirSync(dir);
    expect(files.length).toBe(failing(r.out).length);
    for (const f of files) {
      const parsed = parseScenario(readFileSync(join(dir, f), 'utf8'), f, { knownBugs: BUG_NAMES });
      expect(parsed.ok).toBe(true);
    }
  });

  it('draws a progress line on a terminal, and none otherwise', async () => {
    const lines: string[] = [];
    const run = (tty: boolean) =>
      runCheck(['--seed', '1', '--runs', '3', '--workers', '1', '--property', 'grant-bounds'], {
        out: () => {},
        err: () => {},
        errIsTTY: tty,
        progress: (l) => lines.push(l),
      });
    await run(false);
    expect(lines).toEqual([]);
    await run(true);
    expect(lines.at(-1)).toMatch(/^3\/3 runs, 0 violations, [\d.]+ runs\/s$/);
  });

  it('reports a run that passes its event budget with its seed, goes on, and exits 3', async () => {
    const out: string[] = [];
    const lines: string[] = [];
    const args = ['--seed', '1', '--runs', '3', '--workers', '1', '--property', 'grant-bounds', '--max-events', '400'];
    const code = await runCheck(args, {
      out: (l) => out.push(l),
      err: () => {},
      errIsTTY: true,
      progress: (l) => lines.push(l),
    });
    expect(code).toBe(3);
    const text = out.join('\n');
    const stopped = [
      ...text.matchAll(
        new RegExp(
          String.raw`^ {2}run (\d) \(run seed \d+\): stopped at [\d.]+ s after 400 events, not ` +
            'judged: passed its budget of 400 events$',
          'gm',
        ),
      ),
    ];
    // Runs 0 and 1 need more than 400 events, run 2 fewer: it is judged between and after them.
    expect(stopped.map((m) => Number(m[1]))).toEqual([0, 1]);
    expect(text).toMatch(/^3 runs \(indices 0\.\.2\), 0 with a violation, 2 stopped$/m);
    expect(text).toContain('reproduce: lessor-sim check --seed 1 --runs 3 --property grant-bounds --max-events 400');
    expect(lines.at(-1)).toMatch(/^3\/3 runs, 0 violations, 2 stopped, [\d.]+ runs\/s$/);
    // The same runs under a budget they fit in are judged, and pass.
    expect(await runCheck([...args.slice(0, -1), '10000000'], { out: () => {}, err: () => {}, errIsTTY: false })).toBe(
      0,
    );
  });

  it(
    "names each violation's finding class; --allow-known exits " +
      '0 only when none is unexplained; --fixes all removes them',
    async () => {
      // Seed 13: run 11 of the default campaign is a stale leader answering a lease read.
      const run = async (extra: string[]) => {
        const out: string[] = [];
        const code = await runCheck(['--seed', '13', '--runs', '12', '--workers', '2', ...extra], {
          out: (l) => out.push(l),
          err: () => {},
          errIsTTY: false,
        });
        return { code, out: out.join('\n') };
      };
      const plain = await run([]);
      expect(plain.code).toBe(1);
      expect(plain.out).toContain(
        'class: stale-leader-answers-lease-reads ' +
          '(removed by fix lease-reads-confirm-leadership; also by confirm-leadership-by-read-index)',
      );
      expect(plain.out).toMatch(/^ {2}stale-leader-answers-lease-reads +1 {2}runs 11$/m);
      expect((await run(['--allow-known'])).code).toBe(0);
      const fixed = await run(['--fixes', 'all']);
      expect([fixed.code, fixed.out.match(/12 runs \(indices 0\.\.11\), (\d+) with a violation/)?.[1]]).toEqual([
        0,
        '0',
      ]);
      expect(fixed.out).toContain('reproduce: lessor-sim check --seed 13 --runs 12 --fixes all');
      // A bug switch's violations are no finding of etcd as it is: unexplained, and --allow-known still fails.
      const bug = await check(['--workers', '2', '--allow-known']);
      expect(bug.code).toBe(1);
      expect(bug.out).toContain('class: unexplained (no proposed fix removes it)');
    },
  );

  it('exits 0 when no run violates a property, and 2 on bad usage', async () => {
    const clean: string[] = [];
    expect(
      await runCheck(['--seed', '1', '--runs', '2', '--workers', '1', '--property', 'grant-bounds'], {
        out: (l) => clean.push(l),
        err: () => {},
        errIsTTY: false,
      }),
    ).toBe(0);
    expect(clean.join('\n')).toMatch(/2 runs \(indices 0\.\.1\), 0 with a violation/);
    for (const bad of [
      ['--property', 'no-such'],
      ['--bugs', 'nope'],
      ['--fixes', 'nope'],
      ['--shard', '2/2'],
      ['--shard', '1/0'],
      ['--runs', '-1'],
      ['--time-budget', 'soon'],
      ['--max-events', '0'],
      ['--timeout', '5'],
      ['--frobnicate'],
    ]) {
      const err: string[] = [];
      expect(await runCheck(bad, { out: () => {}, err: (l) => err.push(l), errIsTTY: false }), bad.join(' ')).toBe(2);
      expect(err.join('\n')).toContain('usage:');
    }
  });
});
