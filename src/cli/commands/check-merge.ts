import { bool, str, type Command } from '../command.js';
import { checkOutputDir, refuseInputAsOutput } from '../output-path.js';
import { CHECK_REPORTER_FLAGS, checkReporter } from './check-reporter.js';

export const checkMergeCommand: Command = {
  name: 'check merge',
  summary: "join the JSON reports of a campaign's shards into the whole campaign's summary",
  args: 'DIR...',
  positionals: { min: 1, max: Infinity },
  flags: {
    'allow-known': {
      type: 'boolean',
      help: 'exit 0 when every violation belongs to a documented finding class (docs/findings/)',
    },
    out: { type: 'string', value: 'DIR', help: "write every shard's counterexamples to DIR, as one campaign would" },
    ...CHECK_REPORTER_FLAGS,
  },
  details: [
    'Each DIR is a folder holding shard reports (the .json files check --reporter json writes; others are',
    'passed over) or a report file itself. The shards must be every shard of one campaign (same lessor-sim',
    'version, seed, runs and flags), each once, each having finished its share: otherwise merge refuses in one',
    'line with exit code 2. It prints the summary the campaign run in one process prints, and exits as it would.',
    'Without --out, a counterexample is named where its shard wrote it (docs/scale-out.md).',
  ].join('\n'),
  run: async (inv) => {
    const reporter = checkReporter(inv);
    const out = str(inv, 'out');
    if (out !== undefined) checkOutputDir('--out', out);
    const { loadReports, runMerge } = await import('../check/run-merge.js');
    const loaded = loadReports(inv.positionals);
    // Before anything is written: the merged report must not overwrite a report it reads.
    if (reporter !== undefined)
      refuseInputAsOutput('--output', reporter.file, [...inv.positionals, ...loaded.map((l) => l.file)]);
    return runMerge({ loaded, out, allowKnown: bool(inv, 'allow-known') }, inv.io, reporter);
  },
};
