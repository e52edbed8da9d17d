import { PROPERTY_NAMES, isPropertyName } from '../../properties/monitors/property-names.js';
import { list, str, type Command, type Invocation } from '../command.js';
import { UsageError } from '../errors.js';
import { parseLimits } from '../limits.js';
import { checkOutputDir } from '../output-path.js';
import { packageVersion } from '../version.js';
import { CHECK_REPORTER_FLAGS, checkReporter } from './check-reporter.js';
import { checkMergeCommand } from './check-merge.js';
import { APP_CHECK_FLAGS, appCheck, usesAppCheck } from '../app-check/app-check-command.js';

export const checkCommand: Command = {
  name: 'check',
  summary: 'a property campaign over generated runs (clusters, workloads, faults), on worker threads',
  args: '[FILE...]',
  positionals: { min: 0, max: Infinity },
  flags: {
    runs: {
      type: 'string',
      value: 'N',
      help: 'runs in the whole campaign (default 1000, or unbounded with --time-budget)',
    },
    seed: { type: 'string', value: 'S', help: 'campaign seed (default: random, printed)' },
    'time-budget': { type: 'string', value: 'D', help: 'stop starting runs after D (e.g. 60s, 5m)' },
    property: {
      type: 'string',
      multiple: true,
      value: 'NAME',
      help: 'check only these properties (repeatable or comma-separated); default all',
    },
    bugs: { type: 'string', multiple: true, value: 'a,b', help: 'historical bug switches every run has on' },
    fixes: {
      type: 'string',
      multiple: true,
      value: 'a,b|all',
      help: 'proposed fixes every run has on (the dual of bugs; see docs/findings/)',
    },
    'allow-known': {
      type: 'boolean',
      help: 'exit 0 when every violation belongs to a documented finding class (docs/findings/)',
    },
    'exit-zero': {
      type: 'boolean',
      help: 'exit 0 whatever the runs found, for a shard (check merge gives the verdict); 2 and 4 keep their meaning',
    },
    out: { type: 'string', value: 'DIR', help: 'shrink each failing run and write its counterexample scenario to DIR' },
    shard: {
      type: 'string',
      value: 'i/n',
      help: "run slice i (0-based, 0 <= i < n) of n contiguous slices of the campaign's runs",
    },
    workers: {
      type: 'string',
      value: 'N',
      help: 'worker threads (default: 1 per 2 cores, 1,500+ runs each); with --app: clusters at once',
    },
    'max-events': {
      type: 'string',
      value: 'N',
      help: "each run's event budget: a run past it is stopped, listed with its seed and not judged",
    },
    timeout: {
      type: 'string',
      value: 'D',
      help: "each run's wall-clock limit (e.g. 30s), shrinking included; a run past it is stopped likewise",
    },
    ...CHECK_REPORTER_FLAGS,
    ...APP_CHECK_FLAGS,
  },
  subcommands: [checkMergeCommand],
  details: [
    'Run i of a campaign is generated from (seed, i) alone, so shards and worker counts never change a',
    "run's verdict. Prints the seed to reproduce, a progress line on stderr when it is a terminal, and a summary.",
    'Ctrl-C (SIGINT) or SIGTERM ends it early: counterexamples already written stay, the summary and report',
    'are finished with the runs that ran, marked partial, and it exits 130 (143 on SIGTERM); a second signal quits.',
    'A shard (--shard i/n, i from 0 as JOB_COMPLETION_INDEX) writes its part with --reporter json --output FILE;',
    'lessor-sim check merge DIR... joins the parts into the summary of the whole campaign (docs/scale-out.md).',
    'Each violation is replayed with each proposed fix on and named after the finding class whose fix removes',
    'it (docs/findings/), or marked unexplained; the summary groups violations by class.',
    'With FILE...: no campaign; the monitors judge each scenario file (a counterexample file, say) for the',
    'properties --property names (default all), exit 1 when one is violated; --max-events and --timeout apply.',
    `properties: ${PROPERTY_NAMES.join(', ')}`,
  ].join('\n'),
  run: async (inv) => {
    if (usesAppCheck(inv)) return appCheck(inv, () => Date.now() % 2 ** 31);
    if (inv.positionals.length > 0) return checkFilesOf(inv);
    const { checkOptions } = await import('../check/check-options.js');
    const o = checkOptions(inv, () => Date.now() % 2 ** 31);
    const reporter = checkReporter(inv);
    const out = str(inv, 'out');
    if (out !== undefined) checkOutputDir('--out', out);
    const { runCheck } = await import('../check/run-check.js');
    return runCheck(o, inv.io, reporter, packageVersion());
  },
};

/** The flags that mean something when check judges files rather than running a campaign. */
const FILE_FLAGS = new Set(['property', 'max-events', 'timeout', 'help', 'debug']);

async function checkFilesOf(inv: Invocation): Promise<number> {
  const campaignOnly = Object.keys(inv.flags).filter(
    (f) => inv.flags[f] !== undefined && inv.flags[f] !== false && !FILE_FLAGS.has(f),
  );
  if (campaignOnly.length > 0)
    throw new UsageError(
      `--${campaignOnly[0]} applies to a campaign; check FILE... takes only --property, --max-events and --timeout`,
    );
  const properties = list(inv, 'property').flatMap((p) => p.split(','));
  for (const p of properties)
    if (!isPropertyName(p))
      throw new UsageError(`unknown property ${JSON.stringify(p)}; known: ${PROPERTY_NAMES.join(', ')}`);
  const limits = parseLimits(str(inv, 'max-events'), str(inv, 'timeout'));
  if (typeof limits === 'string') throw new UsageError(limits);
  const { checkFiles } = await import('../check/check-files.js');
  return checkFiles(inv.positionals, properties.filter(isPropertyName), limits, inv.io);
}
