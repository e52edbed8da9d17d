import { str, type Command } from '../command.js';
import { UsageError } from '../errors.js';
import { checkOutputFile } from '../output-path.js';
import { SCENARIO_FLAGS, loadAll, replayCli, runOptions } from './scenario-flags.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'write a self-contained HTML page with the SVG timeline of a replay',
  args: 'FILE',
  positionals: { min: 1, max: 1 },
  flags: {
    ...SCENARIO_FLAGS,
    out: { type: 'string', short: 'o', value: 'OUT.html', help: 'the page to write (required)' },
  },
  run: async (inv) => {
    const opts = runOptions(inv);
    const cli = replayCli(inv);
    const out = str(inv, 'out');
    if (out === undefined) throw new UsageError('render: name the output file with -o OUT.html', 'render');
    checkOutputFile('-o', out, 'render');
    const [scenario] = loadAll(inv.positionals);
    const { replay } = await import('../replay.js');
    const { exitCodeOf } = await import('../limits.js');
    const { renderTimelineHtml } = await import('../../report/render/index.js');
    const { writeFileSync } = await import('node:fs');
    const r = replay(scenario!, opts, cli, inv.io);
    writeFileSync(out, renderTimelineHtml(r));
    inv.io.out(`wrote ${out} (${r.assertions.filter((a) => a.pass).length}/${r.assertions.length} assertions passed, trace sha256 ${r.trace.hash()})`);
    return exitCodeOf([r]);
  },
};
