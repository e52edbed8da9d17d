// The progress line end to end: drawn on stderr under a pseudo-terminal (util-linux `script`), absent
// when stderr is a pipe and under --json, and never on stdout.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'src/cli/main.ts');
const hasScript = spawnSync('script', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-progress-'));
// An idle hour: some 400,000 events, a few progress polls.
const FILE = join(dir, 'idle-hour.yaml');
writeFileSync(FILE, 'name: idle-hour\nsteps:\n  - { at: 1h, expect: { key: /k, exists: false } }\n');
// Progress shows after 0 ms instead of a second, so a short replay draws it.
const env = { ...process.env, LESSOR_SIM_PROGRESS_AFTER_MS: '0' };
const PROGRESS =
  /\r\x1b\[Kvirtual [\d.]+ h of 1\.00 h \([\d.]+ %\), [\d.]+ [kM]? ?events\/s, ~[^\r\n]+ left {2}\S*idle-hour\.yaml/;

const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI with stderr on a pseudo-terminal and stdout in a file; returns what each received. */
function underTerminal(args: string[]): { terminal: string; stdout: string; status: number | null } {
  const out = join(dir, `stdout-${args.join('-').replace(/\W/g, '')}.txt`);
  // A wide terminal, so that the line is not cut to the width of whatever runs the test.
  const cmd = `stty cols 250; ${sh(process.execPath)} --import tsx ${sh(CLI)} ${args.map(sh).join(' ')} > ${sh(out)}`;
  // -e: script exits with the command's exit code.
  const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env, encoding: 'utf8' });
  return { terminal: r.stdout, stdout: readFileSync(out, 'utf8'), status: r.status };
}

describe.skipIf(!hasScript)('the progress line of a long replay', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is drawn on a terminal stderr, in place, and erased before the command ends; stdout never sees it', () => {
    const { terminal, stdout, status } = underTerminal(['run', FILE, '--quiet']);
    expect(status).toBe(0);
    expect(terminal).toMatch(PROGRESS);
    // The last thing on the terminal erases the line.
    expect(terminal.endsWith('\r\x1b[K')).toBe(true);
    expect(stdout).toContain('1 passed, 0 failed');
    expect(stdout).not.toContain('events/s');
    expect(stdout).not.toContain('\x1b');
  });

  it('is not drawn under --json, even on a terminal', () => {
    const { terminal, stdout } = underTerminal(['run', FILE, '--json']);
    expect(terminal).toBe('');
    expect(JSON.parse(stdout)[0].passed).toBe(true);
  });

  it('is not drawn when stderr is a pipe', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'run', FILE, '--quiet'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('events/s');
  });

  it('is erased before the one-line message of a stopped replay', () => {
    const { terminal, status } = underTerminal(['run', FILE, '--quiet', '--max-events', '250000']);
    expect(status).toBe(3);
    expect(terminal).toMatch(PROGRESS);
    expect(terminal).toMatch(
      new RegExp(
        String.raw`\r\x1b\[Klessor-sim: \S+idle-hour\.yaml: stopped at [\d.]+ s of 3601\.000000 s ` +
          'virtual, after 250000 events: passed its budget of 250000 events ' +
          String.raw`\(--max-events\)\r?\n$`,
      ),
    );
  });
});
