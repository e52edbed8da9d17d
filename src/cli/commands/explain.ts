import { str, type Command } from '../command.js';
import { UsageError } from '../errors.js';
import { exitCodeOf } from '../limits.js';
import { SCENARIO_FLAGS, replayOneFile } from './scenario-flags.js';

export const explainCommand: Command = {
  name: 'explain',
  summary: 'why each lease ended when it did, as a chain of causes',
  args: 'FILE',
  positionals: { min: 0, max: 1 },
  flags: {
    ...SCENARIO_FLAGS,
    lease: { type: 'string', value: 'LABEL', help: 'only this lease (a label the file grants, e.g. L1)' },
  },
  run: async (inv) => {
    const r = await replayOneFile(inv, explainCommand);
    const { explain } = await import('../../report/explain.js');
    const label = str(inv, 'lease');
    // Labels are known once the grants have run (grant-many names them by count).
    if (label !== undefined && !r.labels.entries().some(([l]) => l === label)) {
      const known = r.labels.entries().map(([l]) => l);
      throw new UsageError(
        `--lease ${label}: ${r.scenario.file} grants no lease labelled ${label} ` +
          `(labels: ${known.join(', ') || 'none'})`,
      );
    }
    const s = r.scenario;
    if (s.description !== undefined) inv.io.out(`${s.name}: ${s.description.trim()}\n`);
    for (const line of explain(r, label)) inv.io.out(line);
    return exitCodeOf([r]);
  },
};
