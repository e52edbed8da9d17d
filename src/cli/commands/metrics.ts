import { bool, str, type Command } from '../command.js';
import type { MetricsRequest } from '../metrics.js';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { checkOutputDir, refuseInputAsOutput } from '../output-path.js';
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
    'promtool-clean': {
      type: 'boolean',
      help:
        "name the lease-TTL histogram etcd_debugging_lease_ttl, so `promtool check metrics` passes (default: etcd's " +
        'own etcd_debugging_lease_ttl_total, which promtool refuses for its _total suffix)',
    },
    promtool: {
      type: 'string',
      value: 'DIR',
      help: "write the run's series and alert rules as a `promtool test rules` file into DIR",
    },
  },
  details: [
    'The signals are read off the trace, so recording them changes nothing in the run. See docs/signals.md.',
    "Metric names are etcd's, etcd_debugging_lease_ttl_total included (a histogram that `promtool check metrics`",
    "refuses for its _total suffix, as it refuses real etcd's); --promtool-clean renames it for CI lint gates.",
  ].join('\n'),
  run: async (inv) => {
    const { metricsCommand: metricsOf, metricsRequest, MetricsUsageError } = await import('../metrics.js');
    const flags = {
      format: str(inv, 'format'),
      at: str(inv, 'at'),
      promtoolDir: str(inv, 'promtool'),
      promtoolClean: bool(inv, 'promtool-clean'),
    };
    let req: MetricsRequest | undefined;
    const r = await replayOneFile(inv, metricsCommand, (s) => {
      if (flags.promtoolDir !== undefined) {
        checkOutputDir('--promtool', flags.promtoolDir);
        for (const f of ['rules.yml', 'test.yml'])
          refuseInputAsOutput('--promtool', join(flags.promtoolDir, f), inv.positionals);
      }
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
