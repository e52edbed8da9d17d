// Outputs are checked before any work: an output that is one of the inputs is refused (a scenario replaced
// by HTML, a shard report by the merge), and so is one the OS will not let us create, which permission bits
// alone do not show for root on /proc and /sys. Each refusal is exit 2 with nothing replayed or written.
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';

const ROOT = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'lessor-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: 'test' });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const SCENARIO = readFileSync(join(ROOT, 'scenarios/seed-runbook.yaml'), 'utf8');

function victim(name: string): string {
  const f = join(dir, name);
  writeFileSync(f, SCENARIO);
  return f;
}

describe('an output that is an input', () => {
  it('is refused for render -o, even spelt another way or hard-linked, and the scenario stays', async () => {
    const f = victim('victim.yaml');
    for (const o of [f, join(dir, '.', 'victim.yaml')]) {
      const r = await run(['render', f, '-o', o]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`-o ${o}: is an input (${f}); name another file`);
    }
    const link = join(dir, 'link.html');
    linkSync(f, link);
    expect((await run(['render', f, '-o', link])).code).toBe(2);
    expect(readFileSync(f, 'utf8')).toBe(SCENARIO);
  });

  it('is refused for run --reporter junit --output', async () => {
    const a = victim('a.yaml');
    const b = victim('b.yaml');
    const r = await run(['run', a, b, '--reporter', 'junit', '--output', b]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(readFileSync(b, 'utf8')).toBe(SCENARIO);
  });

  it('is refused for check merge --output naming a shard report, directly or in a merged folder', async () => {
    const shards = join(dir, 'shards');
    mkdirSync(shards);
    const shard = join(shards, 'shard-0.json');
    const made = await run([
      'check',
      '--seed',
      '1',
      '--runs',
      '1',
      '--workers',
      '1',
      '--property',
      'grant-bounds',
      '--reporter',
      'json',
      '--output',
      shard,
    ]);
    expect(made.code).toBe(0);
    const before = readFileSync(shard, 'utf8');
    for (const args of [[shards], [shard]]) {
      const r = await run(['check', 'merge', ...args, '--reporter', 'json', '--output', shard]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--output ${shard}: is an input`);
    }
    expect(readFileSync(shard, 'utf8')).toBe(before);
    expect(
      (await run(['check', 'merge', shards, '--reporter', 'json', '--output', join(dir, 'merged.json')])).code,
    ).toBe(0);
  });
});

describe('an output the OS will not create', () => {
  it('is refused before the replay, for render, run and check', async () => {
    const f = victim('ok.yaml');
    const cases: [string[], string][] = [
      [['render', f, '-o', '/sys/x.html'], '-o /sys/x.html: cannot be written'],
      [['run', f, '--reporter', 'junit', '--output', '/proc/x.xml'], '--output /proc/x.xml: cannot be written'],
      [['check', '--runs', '1', '--out', '/proc/cx'], '--out /proc/cx: /proc cannot take new files'],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(message);
    }
  });
});
