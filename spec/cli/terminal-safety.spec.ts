// Control characters from a scenario or a report never reach the terminal raw (a name could clear the
// screen, set the window title, or redraw a line as "ALL PASSED"); they print as \uXXXX, which --json reads
// back as the same text. Every printed command is shell-quoted, so a tampered report cannot make a user
// paste `--bugs x; touch …`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { reproduceLine, type CheckCommandOptions } from '../../src/cli/check/check-options.js';
import { escapeControls, shellQuote } from '../../src/report/terminal-text.js';
import { fcParams } from '../support/fc.js';

const ROOT = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'lessor-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = '/k\\e[2J\\rALL PASSED';
const EVIL = [
  'name: "evil\\e]0;pwned\\a\\e[2J"',
  'description: "\\rALL PASSED \\e[32m\\u202e"',
  'duration: 2s',
  'steps:',
  '  - at: 0s',
  `    holder: { name: h, strategy: runbook-go-step3, key: "${KEY}", ttl: 5, client: c1 }`,
  '  - at: 1s',
  `    expect: { key: "${KEY}", exists: true }`,
  '',
].join('\n');

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

// Any C0 or C1 control but newline and tab, and the bidi overrides.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminal output', () => {
  it('escapes control characters in run, trace and explain, and --json keeps the text', () => {
    const file = join(dir, 'evil.yaml');
    writeFileSync(file, EVIL);
    for (const cmd of ['run', 'trace', 'explain']) {
      const r = cli(cmd, file);
      expect(r.status).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(RAW);
      expect(r.stdout).toContain('\\u001b[2J\\u000dALL PASSED');
    }
    const json = cli('run', file, '--json');
    expect(JSON.parse(json.stdout)[0].name).toBe('evil\u001b]0;pwned\u0007\u001b[2J');
  });

  it('prints a newline inside a name or key as \\u000a, so it cannot start a fake line', () => {
    const file = join(dir, 'newline.yaml');
    writeFileSync(file, EVIL.replaceAll(KEY, '/k\\nALL PASSED').replace(/^name: .*$/m, 'name: "x\\nALL PASSED"'));
    for (const cmd of ['run', 'trace', 'explain']) {
      const r = cli(cmd, file);
      expect(r.status).toBe(0);
      expect(r.stdout).not.toMatch(/^ALL PASSED/m);
      expect(r.stdout).toContain('\\u000aALL PASSED');
    }
  });

  it('escapes every control character and leaves every other character alone (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const e = escapeControls(s);
        expect(e).not.toMatch(RAW);
        // Without backslashes of its own, the text is the escaped one with each \uXXXX read back.
        if (!s.includes('\\'))
          expect(e.replace(/\\u([0-9a-f]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))).toBe(s);
      }),
      fcParams(300),
    );
  });
});

describe('printed commands', () => {
  it('quote what a shell would split or run: the reproduce line of a tampered report', () => {
    const o = {
      seed: 1,
      runs: 10,
      bugs: ['x; touch /tmp/pwned'],
      fixes: [],
      shard: { index: 0, count: 1 },
    } as unknown as CheckCommandOptions;
    expect(reproduceLine(o)).toBe("lessor-sim check --seed 1 --runs 10 --bugs 'x; touch /tmp/pwned'");
  });

  it('read back as the same argument by sh (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        (args) => {
          const r = spawnSync('sh', ['-c', `printf '%s\\0' ${args.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
          expect(r.stdout.split('\0').slice(0, -1)).toEqual(args);
        },
      ),
      fcParams(40),
    );
  });

  it('quote a scenario path in the JUnit replay line', () => {
    const file = join(dir, "it's $(evil).yaml");
    writeFileSync(file, EVIL.replace('exists: true', 'exists: false'));
    const xml = join(dir, 'r.xml');
    const r = cli('run', file, '--reporter', 'junit', '--output', xml);
    expect(r.status).toBe(1);
    expect(readFileSync(xml, 'utf8').replaceAll('&apos;', "'")).toContain(
      `replay: npx lessor-sim run '${dir}/it'\\''s $(evil).yaml'`,
    );
  });
});
