// Ctrl-C on `check` keeps what was found: counterexamples are written as each run is shrunk, and on SIGINT
// or SIGTERM the summary and the report are finished with the runs that ran, marked partial; a shard so
// ended is refused by `check merge` as unfinished.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';

const ROOT = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'lessor-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ended {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Starts a long campaign, sends `signal` once `ready()` holds (polled), and waits for it to end. */
function interrupted(args: string[], signal: NodeJS.Signals, ready: (err: string) => boolean): Promise<Ended> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'check', ...args], {
    cwd: ROOT,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const poll = setInterval(() => {
    if (!ready(err)) return;
    clearInterval(poll);
    child.kill(signal);
  }, 200);
  return new Promise((done) =>
    child.on('exit', (code) => {
      clearInterval(poll);
      done({ code, out, err });
    }),
  );
}

const CAMPAIGN = ['--seed', '5', '--runs', '1000000', '--workers', '2', '--bugs', 'no-leadership-check-on-revoke'];

describe('check interrupted', () => {
  it('on SIGINT, keeps the counterexamples shrunk so far and finishes the summary and report as partial', async () => {
    const out = join(dir, 'cx');
    const report = join(dir, 'int.json');
    const found = () => existsSync(out) && readdirSync(out).length > 0;
    const r = await interrupted([...CAMPAIGN, '--out', out, '--reporter', 'json', '--output', report], 'SIGINT', found);
    expect(r.code).toBe(130);
    expect(r.err).toMatch(/SIGINT: stopping/);
    expect(r.out).toMatch(/^\d+ runs \(indices 0\.\.\d+\), [1-9]\d* with a violation\n/);
    expect(r.out).toContain('partial: interrupted by SIGINT; only the runs counted here ran\n');
    const files = readdirSync(out);
    for (const f of files) expect(r.out).toContain(`counterexample: ${join(out, f)}`);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.interrupted).toBe('SIGINT');
    expect(json.runs.filter((x: { counterexample?: unknown }) => x.counterexample !== undefined)).toHaveLength(
      files.length,
    );

    const io = bufferIO();
    expect(await cli(['check', 'merge', report], io, { version: '0.1.0' })).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/it did not finish \(interrupted by SIGINT\)$/);
  });

  it('on SIGTERM, exits 143 with the summary and a JUnit report marked partial', async () => {
    const report = join(dir, 'term.xml');
    const r = await interrupted([...CAMPAIGN, '--reporter', 'junit', '--output', report], 'SIGTERM', (err) =>
      err.includes('campaign seed 5'),
    );
    expect(r.code).toBe(143);
    expect(r.out).toContain('partial: interrupted by SIGTERM');
    expect(readFileSync(report, 'utf8')).toContain('<property name="partial" value="interrupted by SIGTERM"/>');
  });
});
