// Every replaying command ends a replay past --max-events with one line on stderr and exit code 3, and
// refuses a malformed limit as bad usage (exit 2) before running anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FILE = 'scenarios/seed-runbook.yaml';
const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
const STOP = new RegExp(
  String.raw`^lessor-sim: scenarios\/seed-runbook\.yaml: stopped at \d+\.\d{6} s of ` +
    String.raw`\d+\.\d{6} s virtual, after 1500 events: passed its budget of 1500 events ` +
    String.raw`\(--max-events\)$`,
  'm',
);

describe('a replay stopped by --max-events', () => {
  it('ends trace with the stop line and exit code 3, the trace so far on stdout', () => {
    const r = cli('trace', FILE, '--max-events', '1500');
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(STOP);
    expect(r.stdout.split('\n').length).toBeGreaterThan(10);
  });

  it('ends render with the stop line and exit code 3, and still writes the page of what ran', () => {
    const out = join(dir, 'stopped.html');
    const r = cli('render', FILE, '-o', out, '--max-events', '1500');
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(STOP);
    expect(r.stdout).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toMatch(
      /<dt>stopped<\/dt><dd>at [^<]+ after 1500 events: passed its budget of 1500 events<\/dd>/,
    );
  });

  it('says stopped, not failed, in the total lines of run', () => {
    const r = cli('run', FILE, '--quiet', '--max-events', '1500');
    expect(r.status).toBe(3);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, stopped$/);
    const two = cli('run', FILE, FILE, '--quiet', '--max-events', '1500');
    expect(two.stdout.trim().split('\n').at(-1)).toBe('2 scenarios: 0 passed, 0 failed, 2 stopped');
  });

  it('is bad usage when a limit is malformed, before anything runs', () => {
    const r = cli('run', FILE, '--timeout', 'forever');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--timeout takes a positive wall-clock duration such as 30s or 5m, got "forever"');
    expect(r.stdout).toBe('');
  });
});
