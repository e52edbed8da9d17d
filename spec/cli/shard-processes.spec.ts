// A campaign run as 4 shards, each its own process (as 4 pods of an Indexed Job would run it), then merged,
// gives exactly what one process running the whole campaign gives: the same summary on stdout byte for
// byte, the same exit code, the same counterexample files and the same JSON report (but for how long it
// took and on how many workers). The CLI is bundled once as the package build does, so each process
// starts in a fraction of a second.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleCli } from '../support/cli-bundle.js';

const ROOT = resolve(__dirname, '../..');
// Inside the checkout (.scratch* is ignored by git), so the bundle finds node_modules and package.json.
const work = mkdtempSync(join(ROOT, '.scratch-shards-'));
const BIN = join(work, 'bin', 'lessor-sim.js');
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  await bundleCli(join(work, 'bin'));
}, 60_000);

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

function lessorSim(args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out, err }));
  });
}

// 24 runs with a bug switch on: 13 violate the property, in every quarter of the campaign.
const CAMPAIGN = ['check', '--seed', '9', '--runs', '24', '--bugs', 'register-expiry-on-followers'];
const FLAGS = ['--property', 'resource-invariants', '--workers', '1', '--out', 'cx'];

const withoutTiming = (report: string): unknown => {
  const { seconds: _s, workers: _w, ...rest } = JSON.parse(report) as Record<string, unknown>;
  return rest;
};
const filesIn = (d: string): Record<string, string> =>
  Object.fromEntries(readdirSync(d).map((f) => [f, readFileSync(join(d, f), 'utf8')]));

it('4 shard processes merged give what 1 process gives for the whole campaign', async () => {
  const single = join(work, 'single');
  const merged = join(work, 'merged');
  for (const d of [single, merged]) mkdirSync(d);
  const shards = [0, 1, 2, 3].map((i) => {
    const d = join(work, 'shards', String(i));
    mkdirSync(d, { recursive: true });
    return d;
  });
  const [one, ...parts] = await Promise.all([
    lessorSim([...CAMPAIGN, ...FLAGS, '--reporter', 'json', '--output', 'report.json'], single),
    ...shards.map((d, i) =>
      lessorSim(
        [...CAMPAIGN, ...FLAGS, '--shard', `${i}/4`, '--exit-zero', '--reporter', 'json', '--output', 'report.json'],
        d,
      ),
    ),
  ]);
  for (const p of parts) expect(p.code, p.err).toBe(0);
  expect(one!.code, one!.err).toBe(1);
  const shardDirs = ['3', '1', '0', '2'].map((i) => join('..', 'shards', i));
  const m = await lessorSim(
    ['check', 'merge', ...shardDirs, '--out', 'cx', '--reporter', 'json', '--output', 'report.json'],
    merged,
  );
  expect(m.code, m.err).toBe(one!.code);
  expect(m.out).toBe(one!.out);
  expect(m.out).toMatch(/^24 runs \(indices 0\.\.23\), 13 with a violation$/m);
  // Each shard found some of them, and only in its own quarter.
  for (const [i, p] of parts.entries()) {
    const found = [...p.out.matchAll(/^ {2}run (\d+) /gm)].map((x) => Number(x[1]));
    expect(found.length, `shard ${i}`).toBeGreaterThan(0);
    expect(
      found.every((k) => k >= 6 * i && k < 6 * (i + 1)),
      `shard ${i}`,
    ).toBe(true);
    expect(p.out).toContain(`--shard ${i}/4`);
  }
  const cx = filesIn(join(single, 'cx'));
  expect(Object.keys(cx)).toHaveLength(13);
  expect(filesIn(join(merged, 'cx'))).toEqual(cx);
  expect(withoutTiming(readFileSync(join(merged, 'report.json'), 'utf8'))).toEqual(
    withoutTiming(readFileSync(join(single, 'report.json'), 'utf8')),
  );
}, 300_000);
