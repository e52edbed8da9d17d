import type { Command } from '../command.js';
import { SCENARIO_FLAGS, loadAll, replayCli, runOptions } from './scenario-flags.js';

export const traceCommand: Command = {
  name: 'trace',
  summary: 'every event of a replay, one line each (diff two runs with it)',
  args: 'FILE',
  positionals: { min: 1, max: 1 },
  flags: { ...SCENARIO_FLAGS },
  run: async (inv) => {
    const opts = runOptions(inv);
    const cli = replayCli(inv);
    const [scenario] = loadAll(inv.positionals);
    const { replay } = await import('../replay.js');
    const { exitCodeOf } = await import('../limits.js');
    const { formatEvent } = await import('../../trace/trace.js');
    const r = replay(scenario!, opts, cli, inv.io);
    for (const e of r.trace.events) inv.io.out(formatEvent(e));
    return exitCodeOf([r]);
  },
};
