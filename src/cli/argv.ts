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
    parsed = parseArgs({ args: negativeValues(args, flags), options, allowPositionals: true, strict: true });
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

/**
 * `--seed -1`: node:util reads `-1` as a flag and calls the value ambiguous; a dash and a digit is never one
 * of our flags, so it is the value, and the flag's own check refuses it in words.
 */
function negativeValues(args: readonly string[], flags: Readonly<Record<string, Command['flags'][string]>>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    const name = /^--([^=]+)$/.exec(a)?.[1];
    if (name !== undefined && flags[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
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
  const ambiguous = /^Option '(?:-\w, )?--([^ ']+)(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous !== null)
    return `--${ambiguous[1]} needs a value; for one that starts with a dash, write --${ambiguous[1]}=VALUE`;
  const noValue = /^Option '(?:-\w, )?--([^']+)' does not take an argument/.exec(message);
  if (noValue !== null) return `--${noValue[1]} takes no value`;
  return message.split('\n')[0]!;
}
