// The README is true: every `npx lessor-sim …` command in it is one the CLI accepts, naming shipped files;
// the quick ones (help, run, trace, explain, render) are run; and every excerpt shown as a command's output
// (the block after `<!-- output of: npx lessor-sim … -->`) appears in what that command prints, in order.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/argv.js';
import { checkOptions } from '../../src/cli/check/check-options.js';
import { cli } from '../../src/cli/cli.js';
import { resolveCommand } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { EXIT_CODES_HELP } from '../../src/cli/exit-codes.js';
import { bufferIO } from '../../src/cli/io.js';

const ROOT = resolve(__dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'lessor-readme-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * `scenarios/*.yaml` as the shell expands it (a `*` in the last segment only), kept as written when nothing matches.
 */
function expand(arg: string): string[] {
  if (!arg.includes('*')) return [arg];
  const dir = dirname(arg);
  const re = new RegExp(`^${basename(arg).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
  const found = existsSync(join(ROOT, dir))
    ? readdirSync(join(ROOT, dir))
        .filter((f) => re.test(f))
        .sort()
        .map((f) => join(dir, f))
    : [];
  return found.length > 0 ? found : [arg];
}

/** The words of a command line as a POSIX shell splits them (single quotes keep spaces), globs expanded. */
const argvOf = (line: string): string[] =>
  [...line.replace(/\s+#.*$/, '').matchAll(/(?:'[^']*'|[^\s'])+/g)]
    .map((m) => m[0].replace(/'([^']*)'/g, '$1'))
    .slice(2)
    .flatMap(expand);

/** Every `npx lessor-sim` line of the README's sh blocks. */
const commands = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) =>
  m[1]!.split('\n').filter((l) => l.startsWith('npx lessor-sim')),
);

/**
 * Output blocks, each marked as an excerpt or the whole output (`<!-- output of: CMD (excerpt|whole[, exit N]) -->`):
 * the command, its lines (wrapped continuations joined), whether it is the whole output, the exit code, and
 * the README's paragraph before it, which must tell a reader which it is.
 */
const excerpts = [
  ...README.matchAll(
    new RegExp(
      String.raw`((?:^.+\n)+)\n<!-- output of: (npx lessor-sim [^>]+?) \((excerpt|whole)(?:, exit (\d))?\) -->` +
        String.raw`\n${'```'}\n([\s\S]*?)^${'```'}$`,
      'gm',
    ),
  ),
].map((m) => {
  const lines: string[] = [];
  for (const l of m[5]!.split('\n').filter((x) => x.trim() !== '')) {
    if (/^\s{2,}\S/.test(l) && lines.length > 0 && !/^\s+\d/.test(l)) lines[lines.length - 1] += ` ${l.trim()}`;
    else lines.push(l);
  }
  return [m[2]!, { lines, whole: m[3] === 'whole', exit: Number(m[4] ?? 0), before: m[1]! }] as const;
});
const outputBlocks = [...README.matchAll(/^<!-- output of:[^\n]*\n```\n/gm)].length;

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
const outputs = new Map<string, Promise<{ code: number; out: string; err: string }>>();
function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const key = argv.join(' ');
  if (!outputs.has(key)) {
    const io = bufferIO();
    outputs.set(
      key,
      cli(argv, io, { version: 'readme' }).then((code) => ({
        code,
        out: io.stdout.join('\n'),
        err: io.stderr.join('\n'),
      })),
    );
  }
  return outputs.get(key)!;
}

/** Output files go to a temporary folder; campaigns and real etcd are only parsed (too slow, or need etcd). */
const RUNNABLE = new Set(['run', 'trace', 'explain', 'render', 'help']);
const redirect = (argv: string[]): string[] =>
  argv.map((a, i) => (['-o', '--output'].includes(argv[i - 1] ?? '') ? join(tmp, basename(a)) : a));

describe('README commands', () => {
  it('has commands and excerpts to check', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(excerpts.length).toBeGreaterThanOrEqual(2);
  });

  it.each(commands)('%s', async (line) => {
    const argv = argvOf(line);
    const [name] = argv;
    if (name === '--version' || name === 'help') {
      expect((await run(argv)).code).toBe(0);
      return;
    }
    const named = resolveCommand(COMMANDS, argv);
    expect(named, `unknown command in: ${line}`).toBeDefined();
    // What follows `--` is a program's command line (serve FILE -- CMD), not the command's own arguments.
    const dashes = named!.cmd.afterDashes !== undefined ? named!.rest.indexOf('--') : -1;
    const parsed = parseCommandArgs(named!.cmd, dashes < 0 ? named!.rest : named!.rest.slice(0, dashes));
    // A merge names folders of shard reports a campaign would have written.
    if (named!.cmd.name !== 'check merge')
      for (const f of parsed.positionals)
        if (!f.startsWith('cx/') && !f.startsWith('counterexamples/')) expect(existsSync(join(ROOT, f)), f).toBe(true);
    if (named!.cmd.name === 'check') checkOptions(parsed, () => 1);
    if (!RUNNABLE.has(name!) || parsed.positionals.some((f) => f.startsWith('cx/'))) return;
    const r = await run(redirect(argv));
    expect(r.err).toBe('');
    expect(r.code, line).toBe(0);
  });
});

describe('README exit codes', () => {
  it('are the ones `lessor-sim help` prints', () => {
    const help = new Map(
      [...EXIT_CODES_HELP.matchAll(/^ {2}(\d) {2}([\s\S]*?)(?=\n {2}\d |(?![\s\S]))/gm)].map((m) => [
        m[1]!,
        norm(m[2]!),
      ]),
    );
    const readme = new Map(
      [...README.matchAll(/^\| (\d) \| (.*) \|$/gm)].map((m) => [m[1]!, norm(m[2]!.replace(/`/g, ''))]),
    );
    expect(help.size).toBe(6);
    expect(readme).toEqual(help);
  });
});

describe('README output blocks', () => {
  it('are each marked as an excerpt or the whole output, visibly too', () => {
    expect(excerpts.length).toBe(outputBlocks);
    for (const [line, x] of excerpts)
      expect(x.before, `the paragraph before the output of ${line}`).toMatch(x.whole ? /whole output/ : /excerpt/);
  });

  it.each(excerpts)(
    '%s',
    async (line, x) => {
      const r = await run(argvOf(line));
      expect(r.code).toBe(x.exit);
      const out = norm(r.out);
      if (x.whole) {
        expect(out).toBe(norm(x.lines.join('\n')));
        return;
      }
      let from = 0;
      for (const l of x.lines) {
        const at = out.indexOf(norm(l), from);
        expect(at, `not found (in order) in the output of ${line}:\n${l}`).toBeGreaterThanOrEqual(0);
        from = at + norm(l).length;
      }
    },
    120_000,
  );
});
