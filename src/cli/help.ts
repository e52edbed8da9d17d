/** Help text generated from the command table: the command list, and each command's synopsis and flags. */
import { allFlags } from './argv.js';
import { allCommands, type Command, type FlagSpec } from './command.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

const flagText = (name: string, f: FlagSpec): string =>
  `${f.short !== undefined ? `-${f.short}, ` : '    '}--${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`;

/** `lessor-sim run FILE... [--seed N] …`: the one-line synopsis (also printed after a usage error). */
export function synopsis(cmd: Command): string {
  const flags = Object.entries(cmd.flags).map(([n, f]) => {
    const text =
      `${f.required === true && f.short !== undefined ? `-${f.short}` : `--${n}`}` +
      `${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`;
    return f.required === true ? text : `[${text}]${f.multiple === true ? '...' : ''}`;
  });
  const after = cmd.afterDashes !== undefined ? ` [-- ${cmd.afterDashes}]` : '';
  return `usage: lessor-sim ${cmd.name}${cmd.args !== '' ? ` ${cmd.args}` : ''} ${flags.join(' ')}${after}`.trimEnd();
}

export function commandHelp(cmd: Command): string {
  const rows = Object.entries(allFlags(cmd)).map(([n, f]) => [flagText(n, f), f.help] as const);
  const width = Math.max(...rows.map(([l]) => l.length));
  const lines = [synopsis(cmd), '', cmd.summary];
  if (cmd.details !== undefined) lines.push('', cmd.details);
  for (const sub of cmd.subcommands ?? [])
    lines.push('', `${synopsis(sub)}`, `  ${sub.summary} (lessor-sim help ${sub.name})`);
  lines.push('', 'flags:', ...rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}`), '', EXIT_CODES_HELP);
  return lines.join('\n');
}

export function globalHelp(top: readonly Command[], version: string): string {
  const commands = allCommands(top);
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `lessor-sim ${version}: a deterministic simulation of etcd's lessor and the cluster around it`,
    '',
    'usage: lessor-sim COMMAND [ARGS] [FLAGS]',
    '       lessor-sim help [COMMAND]     lessor-sim COMMAND --help     lessor-sim --version',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    EXIT_CODES_HELP,
  ].join('\n');
}
