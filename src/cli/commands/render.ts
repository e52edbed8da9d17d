import { str, type Command } from '../command.js';
import { checkOutputFile, writeOutput } from '../output-path.js';
import { exitCodeOf } from '../limits.js';
import { SCENARIO_FLAGS, replayOneFile } from './scenario-flags.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'write a self-contained HTML page with the SVG timeline of a replay',
  args: 'FILE',
  positionals: { min: 0, max: 1 },
  flags: {
    ...SCENARIO_FLAGS,
    out: { type: 'string', short: 'o', required: true, value: 'OUT.html', help: 'the page to write' },
  },
  run: async (inv) => {
    const out = str(inv, 'out')!;
    const r = await replayOneFile(inv, renderCommand, () => checkOutputFile('-o', out));
    const { renderTimelineHtml } = await import('../../report/render/index.js');
    writeOutput(out, renderTimelineHtml(r));
    inv.io.out(
      `wrote ${out} (${r.assertions.filter((a) => a.pass).length}/` +
        `${r.assertions.length} assertions passed, trace sha256 ${r.trace.hash()})`,
    );
    return exitCodeOf([r]);
  },
};
