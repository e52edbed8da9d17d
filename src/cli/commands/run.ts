import { bool, type Command } from '../command.js';
import { REPORTER_FLAGS, junitOutput } from './reporter-flags.js';
import { SCENARIO_FLAGS, replayCli, runOptions, scenariosOf } from './scenario-flags.js';

export const runCommand: Command = {
  name: 'run',
  summary: 'replay scenario files: the timeline, PASS/FAIL per assertion, the trace hash',
  args: 'FILE...',
  positionals: { min: 0, max: Infinity },
  flags: {
    ...SCENARIO_FLAGS,
    quiet: { type: 'boolean', short: 'q', help: 'no timeline, only the verdicts' },
    verbose: { type: 'boolean', help: 'also client sends and receives, follower applies and the boot before time 0' },
    json: { type: 'boolean', help: 'machine-readable results on stdout (errors too)' },
    ...REPORTER_FLAGS,
  },
  details: 'Every file is validated before anything runs; with several files a total line ends the output.',
  run: async (inv) => {
    const opts = runOptions(inv);
    const cli = replayCli(inv, bool(inv, 'json'));
    const junit = junitOutput(inv);
    const scenarios = scenariosOf(inv, runCommand, cli);
    const { runFiles } = await import('./run-files.js');
    return runFiles(
      scenarios,
      opts,
      cli,
      { quiet: bool(inv, 'quiet'), verbose: bool(inv, 'verbose'), json: bool(inv, 'json'), junit },
      inv.io,
    );
  },
};
