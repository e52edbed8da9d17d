import { str, type Command } from '../command.js';
import type { MetricsRequest } from '../metrics.js';
import { UsageError } from '../errors.js';
import { exitCodeOf } from '../limits.js';
import { SCENARIO_FLAGS, replayOneFile } from './scenario-flags.js';

export const metricsCommand: Command = {
  name: 'metrics',
  summary: "a replay's signals: Prometheus exposition at an instant, the whole series, logs, spans, alerts",
  args: 'FILE',
  positionals: { min: 0, max: 1 },
  flags: {
    ...SCENARIO_FLAGS,
    at: {
      type: 'string',
      value: 'T',
      help: 'the virtual instant of the exposition, e.g. 12s (default: the end of the run)',
    },
    format: { type: 'string', value: 'F', help: 'prometheus (default), openmetrics, json, logs, otlp or alerts' },
    promtool: {
      type: 'string',
      value: 'DIR',
      help: "write the run's series and alert rules as a `promtool test rules` file into DIR",
    },
  },
  details: 'The signals are read off the trace, so recording them changes nothing in the run. See docs/signals.md.',
  run: async (inv) => {
    const { metricsCommand: metricsOf, metricsRequest, MetricsUsageError } = await import('../metrics.js');
    const flags = { format: str(inv, 'format'), at: str(inv, 'at'), promtoolDir: str(inv, 'promtool') };
    let req: MetricsRequest | undefined;
    const r = await replayOneFile(inv, metricsCommand, (s) => {
      try {
        req = metricsRequest(s, flags);
      } catch (e) {
        if (e instanceof MetricsUsageError) throw new UsageError(`metrics: ${e.message}`);
        throw e;
      }
    });
    inv.io.out(metricsOf(r, req!).replace(/\n$/, ''));
    return exitCodeOf([r]);
  },
};
