/**
 * The CLI in-process: dispatch through the command table, and every error as one line (or a JSON object
 * under --json) with its exit code. `main.ts` binds it to the real process.
 */
import { closest } from '../scenario/suggest.js';
import type { ScenarioError } from '../scenario/types.js';
import { parseCommandArgs } from './argv.js';
import { resolveCommand, type Command } from './command.js';
import { COMMANDS } from './commands/index.js';
import { CliError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { commandHelp, globalHelp, synopsis } from './help.js';
import type { CliIO } from './io.js';
import { oneLine } from '../report/terminal-text.js';

export interface CliOptions {
  readonly version: string;
  readonly commands?: readonly Command[];
}

/** Runs one command line; resolves to the exit code. Never throws. */
export async function cli(argv: readonly string[], io: CliIO, opts: CliOptions): Promise<number> {
  const commands = opts.commands ?? COMMANDS;
  // Flags after `--` are positionals, so they do not switch the error format.
  const flags = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  // A usage error names the command whose synopsis to show; the one being run, when it does not say.
  const current = resolveCommand(commands, argv)?.cmd;
  try {
    return await dispatch(argv, io, commands, opts.version);
  } catch (e) {
    return report(e, io, current, flags.includes('--json'), flags.includes('--debug'));
  }
}

async function dispatch(
  argv: readonly string[],
  io: CliIO,
  commands: readonly Command[],
  version: string,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('name a command');
  if (first === '--version' || first === '-v') {
    if (rest.length > 0) throw new UsageError(`${first} takes nothing after it`);
    io.out(`lessor-sim ${version}`);
    return EXIT.ok;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    if (rest[0] === undefined) {
      io.out(globalHelp(commands, version));
      return EXIT.ok;
    }
    find(commands, rest[0]);
    const named = resolveCommand(commands, rest)!;
    if (named.rest.length > 0) throw new UsageError('help takes one command name (and a subcommand)');
    io.out(commandHelp(named.cmd));
    return EXIT.ok;
  }
  find(commands, first);
  const { cmd, rest: all } = resolveCommand(commands, argv)!;
  // A command line after `--` is the command's to run, never its own flags or positionals.
  const dashes = cmd.afterDashes !== undefined ? all.indexOf('--') : -1;
  const args = dashes < 0 ? all : all.slice(0, dashes);
  const parsed = parseCommandArgs(cmd, args);
  if (parsed.flags.help === true) {
    io.out(commandHelp(cmd));
    return EXIT.ok;
  }
  const passthrough = dashes < 0 ? {} : { passthrough: all.slice(dashes + 1) };
  return cmd.run({ flags: parsed.flags, positionals: parsed.positionals, ...passthrough, io });
}

function find(commands: readonly Command[], name: string): Command {
  const cmd = commands.find((c) => c.name === name);
  if (cmd !== undefined) return cmd;
  if (name.startsWith('-'))
    throw new UsageError(`unknown option ${name} before the command; flags go after it (lessor-sim COMMAND --flag)`);
  const hint = closest(
    name,
    commands.map((c) => c.name),
  );
  throw new UsageError(
    `unknown command ${JSON.stringify(name)}${hint !== undefined ? ` (did you mean ${hint}?)` : ''}`,
  );
}

const problemLine = (p: ScenarioError): string =>
  p.line === 0 ? `${p.file}: ${p.message}` : `${p.file}:${p.line}:${p.col}: ${p.message}`;

function report(e: unknown, io: CliIO, current: Command | undefined, json: boolean, debug: boolean): number {
  const known = e instanceof CliError;
  const exitCode = known ? e.exitCode : EXIT.internal;
  const message = known ? e.message : `unexpected error: ${e instanceof Error ? e.message : String(e)}`;
  const problems = known ? e.problems : [];
  const stack = !known && debug && e instanceof Error ? e.stack : undefined;
  if (json) {
    io.out(
      JSON.stringify({ error: { exitCode, message, problems, ...(stack !== undefined ? { stack } : {}) } }, null, 2),
    );
    return exitCode;
  }
  for (const p of problems) io.err(oneLine(problemLine(p)));
  io.err(`lessor-sim: ${message}`);
  if (stack !== undefined) io.err(stack);
  else if (!known) io.err('(a bug in lessor-sim: rerun with --debug for the stack trace, and please report it)');
  if (e instanceof UsageError && problems.length === 0) {
    const cmd = current;
    io.err(
      cmd !== undefined
        ? `${synopsis(cmd)}\n(lessor-sim help ${cmd.name} for every flag)`
        : 'usage: lessor-sim COMMAND [ARGS] [FLAGS]   (lessor-sim help for the commands)',
    );
  }
  return exitCode;
}
