/**
 * A command of the CLI as data: its name, summary, flags (type and help), positionals and handler. The
 * table of these drives parsing, `--help`, `help CMD`, and the refusal of unknown commands and flags, so
 * adding a command or a flag is adding an entry.
 */
import type { CliIO } from './io.js';

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Repeatable (string flags): every occurrence is kept. */
  readonly multiple?: boolean;
  /** The command refuses to run without it. */
  readonly required?: boolean;
  /** The value's placeholder in help, e.g. `N` for `--seed N`. */
  readonly value?: string;
  readonly help: string;
}

export type FlagValue = string | boolean | readonly string[] | undefined;

export interface Invocation {
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly positionals: readonly string[];
  /** What followed `--`, for a command that takes a command line there (`afterDashes`). */
  readonly passthrough?: readonly string[];
  readonly io: CliIO;
}

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The positionals in the synopsis, e.g. `FILE...`. */
  readonly args: string;
  readonly positionals: { readonly min: number; readonly max: number };
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** The command takes a command line after `--` (this is its placeholder in help, e.g. `CMD ARGS...`). */
  readonly afterDashes?: string;
  /** Paragraphs shown by `help CMD` after the synopsis. */
  readonly details?: string;
  /** Commands run as `CMD SUB ...`, each named `CMD SUB` in full (`check merge`). */
  readonly subcommands?: readonly Command[];
  /** Runs the command; resolves to its exit code. Heavy modules are imported here, so start-up stays quick. */
  readonly run: (inv: Invocation) => Promise<number>;
}

/** Flags every command takes. */
export const COMMON_FLAGS: Readonly<Record<string, FlagSpec>> = {
  help: { type: 'boolean', short: 'h', help: 'show this help and exit' },
  debug: { type: 'boolean', help: 'on an unexpected error, print its stack trace' },
};

export const str = (inv: Pick<Invocation, 'flags'>, flag: string): string | undefined => {
  const v = inv.flags[flag];
  return typeof v === 'string' ? v : undefined;
};
export const bool = (inv: Pick<Invocation, 'flags'>, flag: string): boolean => inv.flags[flag] === true;
export const list = (inv: Pick<Invocation, 'flags'>, flag: string): readonly string[] => {
  const v = inv.flags[flag];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
};

/** The command `argv` names, a subcommand when its second word is one, and the arguments after the name. */
export function resolveCommand(
  commands: readonly Command[],
  argv: readonly string[],
): { readonly cmd: Command; readonly rest: readonly string[] } | undefined {
  const cmd = commands.find((c) => c.name === argv[0]);
  if (cmd === undefined) return undefined;
  const sub = cmd.subcommands?.find((s) => s.name === `${cmd.name} ${argv[1]}`);
  return sub !== undefined ? { cmd: sub, rest: argv.slice(2) } : { cmd, rest: argv.slice(1) };
}

/** Every command with its subcommands after it, in table order. */
export const allCommands = (commands: readonly Command[]): Command[] =>
  commands.flatMap((c) => [c, ...(c.subcommands ?? [])]);
