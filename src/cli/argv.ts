/**
 * Parses a command's arguments against its table entry: unknown flags, missing values and wrong positional counts are
 * usage errors.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { COMMON_FLAGS, type Command, type FlagValue } from './command.js';
import { UsageError } from './errors.js';
import { closest } from '../scenario/suggest.js';

export interface Parsed {
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly positionals: readonly string[];
}

export function allFlags(cmd: Command): Readonly<Record<string, Command['flags'][string]>> {
  return { ...cmd.flags, ...COMMON_FLAGS };
}

export function parseCommandArgs(cmd: Command, args: readonly string[]): Parsed {
  const flags = allFlags(cmd);
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, f] of Object.entries(flags)) {
    options[name] = {
      type: f.type,
      ...(f.short !== undefined ? { short: f.short } : {}),
      ...(f.multiple === true ? { multiple: true } : {}),
    };
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(rephrase((e as Error).message, cmd, Object.keys(flags)));
  }
  const values = parsed.values as Record<string, FlagValue>;
  if (values.help === true) return { flags: values, positionals: parsed.positionals };
  for (const [name, f] of Object.entries(cmd.flags)) {
    if (f.required === true && values[name] === undefined)
      throw new UsageError(
        `${cmd.name} needs ${f.short !== undefined ? `-${f.short}` : `--${name}`} ${f.value ?? 'VALUE'}`,
      );
  }
  const n = parsed.positionals.length;
  const { min, max } = cmd.positionals;
  if (n < min)
    throw new UsageError(
      `${cmd.name}: name ${min === max ? (min === 1 ? 'a' : String(min)) : 'at least one'}` +
        ` ${cmd.args.replace(/\.\.\.$/, '')}`,
    );
  if (n > max) {
    throw new UsageError(
      max === 0
        ? `${cmd.name} takes no positional arguments, got ${JSON.stringify(parsed.positionals[0])}`
        : `${cmd.name} takes ${max === 1 ? 'one' : `at most ${max}`} ${cmd.args}, got ${n}`,
    );
  }
  return { flags: values, positionals: parsed.positionals };
}

/** node:util's messages name the internals ("strict: true", "allowPositionals"); say it as a user would. */
function rephrase(message: string, cmd: Command, known: readonly string[]): string {
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (unknown !== null) {
    const flag = unknown[2]!;
    const hint = closest(flag, known);
    return `${cmd.name} does not take ${unknown[1]}${flag}${
      hint !== undefined ? ` (did you mean --${hint}?)` : ''
    }; see lessor-sim help ${cmd.name}`;
  }
  const needsValue = /^Option '(?:-\w, )?--([^ ]+) <value>' argument missing/.exec(message);
  if (needsValue !== null) return `--${needsValue[1]} needs a value`;
  const noValue = /^Option '(?:-\w, )?--([^']+)' does not take an argument/.exec(message);
  if (noValue !== null) return `--${noValue[1]} takes no value`;
  return message.split('\n')[0]!;
}
