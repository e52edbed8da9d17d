import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { SCENARIO_FLAGS, loadAll, runOptions } from './scenario-flags.js';

export const traceCommand: Command = {
  name: 'trace',
  summary: 'every event of a replay, one line each (diff two runs with it)',
  args: 'FILE',
  positionals: { min: 1, max: 1 },
  flags: { ...SCENARIO_FLAGS },
  run: async (inv) => {
    const opts = runOptions(inv);
    const [scenario] = loadAll(inv.positionals);
    const { runScenario } = await import('../../scenario/replay/runner.js');
    const { formatEvent } = await import('../../trace/trace.js');
    const r = runScenario(scenario!, opts);
    for (const e of r.trace.events) inv.io.out(formatEvent(e));
    return r.passed ? EXIT.ok : EXIT.failed;
  },
};
