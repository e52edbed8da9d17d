// The command-line contract, one test per rule: --version and help for every command; unknown commands and
// flags refused (exit 2) before any work; output paths checked before a run or campaign; EPIPE ends quietly;
// every error one line (the stack only with --debug); usage and errors on stderr; --json errors as JSON;
// several files end with a total line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import type { Command } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { CliError } from '../../src/cli/errors.js';
import { bufferIO } from '../../src/cli/io.js';
import { writeOutput } from '../../src/cli/output-path.js';

const ROOT = resolve(__dirname, '../..');
const RUNBOOK = 'scenarios/seed-runbook.yaml';
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const dir = mkdtempSync(join(tmpdir(), 'lessor-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], commands?: readonly Command[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: VERSION, ...(commands !== undefined ? { commands } : {}) });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

/** The real process, from the sources (the package test covers the built bundle). */
const spawnCli = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('lessor-sim --version and help', () => {
  it('prints the package version', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, out: `lessor-sim ${VERSION}`, err: '' });
  });

  it('lists every command, with the exit codes, for help and --help', async () => {
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      for (const c of COMMANDS)
        expect(r.out).toMatch(new RegExp(`^  ${c.name} +${c.summary.replace(/[()]/g, '\\$&')}$`, 'm'));
      expect(r.out).toContain('exit codes:');
    }
  });

  it.each(COMMANDS.map((c) => c.name))('%s: help CMD and CMD --help show its synopsis and every flag', async (name) => {
    const a = await run(['help', name]);
    const b = await run([name, '--help']);
    expect(a.code).toBe(0);
    expect(b).toEqual(a);
    expect(a.out.split('\n')[0]).toMatch(new RegExp(`^usage: lessor-sim ${name}\\b`));
    for (const flag of [...Object.keys(COMMANDS.find((c) => c.name === name)!.flags), 'help', 'debug'])
      expect(a.out).toContain(`--${flag}`);
  });
});

describe('refusals before any work', () => {
  it('refuses an unknown command with exit 2, suggesting the closest', async () => {
    const r = await run(['rnu', RUNBOOK]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^lessor-sim: unknown command "rnu" \(did you mean run\?\)$/m);
  });

  it('refuses a flag the command does not take, and writes nothing', async () => {
    const file = join(dir, 'x.html');
    const r = await run(['run', RUNBOOK, '-o', file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('run does not take -o');
    expect(existsSync(file)).toBe(false);
    const c = await run(['check', '--runs', '1', '--frobnicate']);
    expect(c.code).toBe(2);
    expect(c.err).not.toContain('campaign seed');
  });

  it('refuses a missing flag value and wrong positional counts', async () => {
    expect((await run(['run', RUNBOOK, '--seed'])).err).toContain('--seed needs a value');
    expect((await run(['trace', RUNBOOK, RUNBOOK])).code).toBe(2);
    expect((await run(['explain', RUNBOOK, RUNBOOK])).code).toBe(2);
    expect((await run(['run'])).err).toContain('run: name at least one FILE');
  });

  it('checks output paths before replaying or starting a campaign', async () => {
    const render = await run(['render', RUNBOOK, '-o', '/no/such/dir/x.html']);
    expect(render.code).toBe(2);
    expect(render.out).toBe('');
    expect(render.err).toContain('-o /no/such/dir/x.html: the directory /no/such/dir does not exist');
    const existing = join(dir, 'a-file');
    writeFileSync(existing, '');
    const check = await run(['check', '--runs', '50', '--out', existing]);
    expect(check.code).toBe(2);
    expect(check.err).toContain('is a file; name a directory');
    expect(check.err).not.toContain('campaign seed');
    const junit = await run(['run', RUNBOOK, '--reporter', 'junit', '--output', '/no/such/dir/r.xml']);
    expect(junit.code).toBe(2);
    expect(junit.out).toBe('');
  });

  it('refuses explain --lease for a label the file never grants', async () => {
    const r = await run(['explain', RUNBOOK, '--lease', 'L9']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('grants no lease labelled L9 (labels: L1, L2)');
  });
});

describe('errors', () => {
  const boom: Command = {
    name: 'boom',
    summary: 'throws',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: { json: { type: 'boolean', help: 'json' } },
    run: () => Promise.reject(new TypeError('x is undefined')),
  };

  it('reports an unexpected error in one line with exit 3, and the stack only with --debug', async () => {
    const plain = await run(['boom'], [boom]);
    expect(plain.code).toBe(4);
    expect(plain.err.split('\n')[0]).toBe('lessor-sim: unexpected error: x is undefined');
    expect(plain.err).not.toMatch(/^\s+at /m);
    const debug = await run(['boom', '--debug'], [boom]);
    expect(debug.code).toBe(4);
    expect(debug.err).toMatch(/^TypeError: x is undefined\n\s+at /m);
  });

  it('reports an output that cannot be written after the work as one line with exit 4', () => {
    let caught: unknown;
    try {
      writeOutput('/proc/version/x.html', 'page');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect((caught as CliError).exitCode).toBe(4);
    expect((caught as CliError).message).toMatch(/^cannot write \/proc\/version\/x\.html \(E[A-Z]+\)$/);
  });

  it('lists every problem of every invalid file and runs nothing', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: bad\ncluster: { members: 3 }\nsteps:\n  - at: 0s\n    grnat: { lease: L1, ttl: 5 }\n');
    const r = await run(['run', RUNBOOK, bad, join(dir, 'missing.yaml')]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^${bad.replace(/[.]/g, '\\.')}:5:5: .*grnat`, 'm'));
    expect(r.err).toContain(`${join(dir, 'missing.yaml')}: cannot read the file (ENOENT)`);
    expect(r.err).toContain('lessor-sim: 2 invalid scenario files; nothing was run');
  });

  it('prints errors as one JSON object on stdout under --json', async () => {
    const missing = await run(['run', '--json', join(dir, 'missing.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe('');
    const doc = JSON.parse(missing.out) as {
      error: { exitCode: number; message: string; problems: { file: string; message: string }[] };
    };
    expect(doc.error.exitCode).toBe(2);
    expect(doc.error.problems[0]!.message).toBe('cannot read the file (ENOENT)');
    const usage = JSON.parse((await run(['run', '--json', RUNBOOK, '--seed', 'x'])).out) as {
      error: { exitCode: number; message: string };
    };
    expect(usage.error).toEqual({
      exitCode: 2,
      message: '--seed takes an integer from 0 to 9007199254740991, got "x"',
      problems: [],
    });
    const internal = JSON.parse((await run(['boom', '--json'], [boom])).out) as { error: { exitCode: number } };
    expect(internal.error.exitCode).toBe(4);
  });
});

describe('a holder written in TypeScript', () => {
  it("is refused by position with exit 2 before anything runs: only the user's code can run it", async () => {
    const f = join(dir, 'user-holder.yaml');
    writeFileSync(
      f,
      'name: u\ncluster: { members: 1 }\nsteps:\n' +
        '  - { at: 0s, holder: { name: a, strategy: user:mine, key: /locks/x, ttl: 5, client: c1 } }\n',
    );
    const r = await run(['run', f]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/user-holder\.yaml:4:\d+: holder a uses strategy user:mine, .*runScenarioAsync/);
  });
});

describe('output', () => {
  it('ends several files with a total line', async () => {
    const r = await run(['run', '--quiet', RUNBOOK, 'scenarios/bugs/a1-leader-change-resets-ttl.buggy.yaml']);
    expect(r.out.split('\n').at(-1)).toBe('2 scenarios: 2 passed, 0 failed');
  });

  it('sends usage and errors to stderr and nothing to stdout, from the real process', () => {
    const r = spawnCli(['run', RUNBOOK, '--frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^lessor-sim: run does not take --frobnicate.*\nusage: lessor-sim run FILE\.\.\./);
  });

  it('ends quietly when the reader of stdout goes away (EPIPE)', async () => {
    const files = Array.from({ length: 20 }, () => RUNBOOK);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'run', ...files], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
