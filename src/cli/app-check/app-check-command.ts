/**
 * The `--app` form of `check`: its flags (spread into check's table) and the handler check dispatches to
 * when --app is given. It reads the flags check already has (--runs, --seed, --workers as clusters at
 * once, --output as the shrunk scenario's file) and refuses the ones that mean nothing here.
 */
import type { FlagSpec, Invocation } from '../command.js';
import { list, str } from '../command.js';
import { UsageError } from '../errors.js';
import { intFlag } from '../int-flag.js';
import { checkOutputFile } from '../output-path.js';
import { parseDuration } from '../../scenario/duration.js';

export const APP_CHECK_FLAGS: Readonly<Record<string, FlagSpec>> = {
  app: {
    type: 'string',
    multiple: true,
    value: 'NAME=CMD',
    help:
      'a campaign over this program (repeatable): each run serves a cluster and runs CMD (sh -c) ' +
      'against it under drawn faults; --workers N clusters at once (default 1), --output FILE the shrunk scenario',
  },
  duration: { type: 'string', value: 'D', help: 'with --app: each run lasts D (default 20s)' },
};

/** check's flags that a campaign over programs does not use. */
const NOT_WITH_APP = [
  'time-budget',
  'property',
  'bugs',
  'fixes',
  'allow-known',
  'exit-zero',
  'out',
  'shard',
  'max-events',
  'timeout',
  'reporter',
];

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Whether the command line is the --app form (any of its own flags given). */
export const usesAppCheck = (inv: Invocation): boolean =>
  Object.keys(APP_CHECK_FLAGS).some((f) => inv.flags[f] !== undefined);

export async function appCheck(inv: Invocation, randomSeed: () => number): Promise<number> {
  if (list(inv, 'app').length === 0) throw new UsageError('--duration applies to check --app NAME=CMD only');
  if (inv.positionals.length > 0) throw new UsageError('check --app takes no FILE; it draws its own schedules');
  const other = NOT_WITH_APP.find((f) => inv.flags[f] !== undefined && inv.flags[f] !== false);
  if (other !== undefined) throw new UsageError(`--${other} does not apply to check --app`);
  const apps = list(inv, 'app').map((spec) => {
    const eq = spec.indexOf('=');
    const name = spec.slice(0, Math.max(0, eq));
    const command = spec.slice(eq + 1);
    if (eq < 0 || !NAME.test(name))
      throw new UsageError(
        `--app takes NAME=CMD with NAME of letters, digits, '.', '_' or '-' (at most 64), got ${JSON.stringify(spec)}`,
      );
    if (command.trim() === '') throw new UsageError(`--app ${name}=: the command is empty`);
    return { name, command };
  });
  const names = apps.map((a) => a.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`--app ${twice} is given twice; each program needs its own name`);
  const runsText = str(inv, 'runs');
  const seedText = str(inv, 'seed');
  const workersText = str(inv, 'workers');
  const durationText = str(inv, 'duration') ?? '20s';
  const d = parseDuration(durationText);
  if (!d.ok || d.us < 3_000_000 || d.us > 600_000_000)
    throw new UsageError(`--duration takes a duration from 3s to 10m, got ${JSON.stringify(durationText)}`);
  const output = str(inv, 'output');
  if (output !== undefined) checkOutputFile('--output', output);
  const { runAppCampaign } = await import('./campaign.js');
  const parallel = workersText === undefined ? 1 : intFlag('--workers', workersText, 1, 8);
  return runAppCampaign(
    {
      apps,
      runs: runsText === undefined ? 20 : intFlag('--runs', runsText, 1, 100_000),
      seed: seedText === undefined ? randomSeed() : intFlag('--seed', seedText, 0, 2 ** 31 - 1),
      parallel,
      durationUs: Math.floor(d.us / 100_000) * 100_000,
      output,
      // About four rounds of candidates at once; at least 8 runs.
      shrinkRuns: Math.max(8, 4 * parallel),
    },
    inv.io,
  );
}
