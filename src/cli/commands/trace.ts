import type { Command } from '../command.js';
import { exitCodeOf } from '../limits.js';
import { SCENARIO_FLAGS, replayOneFile } from './scenario-flags.js';

export const traceCommand: Command = {
  name: 'trace',
  summary: 'every event of a replay, one line each (diff two runs with it)',
  args: 'FILE',
  positionals: { min: 0, max: 1 },
  flags: { ...SCENARIO_FLAGS },
  run: async (inv) => {
    const r = await replayOneFile(inv, traceCommand);
    const { formatEvent } = await import('../../trace/trace.js');
    for (const e of r.trace.events) inv.io.out(formatEvent(e));
    return exitCodeOf([r]);
  },
};
