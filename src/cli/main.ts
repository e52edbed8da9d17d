#!/usr/bin/env node
// lessor-sim's command-line front end. The only place allowed to touch the real process (argv, files,
// stdout, exit codes); everything it runs is deterministic.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BUG_NAMES } from '../lessor/bugs.js';
import { explain } from '../report/explain.js';
import { narrate } from '../report/narrate.js';
import { renderTimelineHtml } from '../report/render/index.js';
import { summary, toJson } from '../report/summary.js';
import { runScenario, type RunOptions } from '../scenario/replay/runner.js';
import { runCheck } from './check/run-check.js';
import { processCheckIO } from './check/terminal-io.js';
import { runDiff } from './differential/index.js';
import { loadScenario } from './load.js';
import { PLAYGROUND_USAGE, runPlayground } from './playground/command.js';
import { formatEvent } from '../trace/trace.js';
import type { Scenario } from '../scenario/types.js';

const USAGE = `usage:
  lessor-sim run FILE... [--seed N] [--profile v3.4|v3.5] [--quiet] [--json] [--verbose]
  lessor-sim trace FILE [--seed N] [--profile v3.4|v3.5]
  lessor-sim explain FILE [--lease LABEL] [--seed N] [--profile v3.4|v3.5]
  lessor-sim render FILE -o OUT.html [--seed N] [--profile v3.4|v3.5]
  lessor-sim diff FILE...        replay in the model (v3.4) and on a real local etcd 3.4 cluster, side by side
  lessor-sim check [--runs N] [--seed S] [--time-budget 60s] [--property NAME]... [--bugs a,b]
                   [--out DIR] [--shard i/n] [--workers N]    a property campaign over generated runs
  ${PLAYGROUND_USAGE}

exit codes: 0 every assertion held, 1 an assertion failed, 2 bad usage or an invalid scenario file`;


class UsageError extends Error {}

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      seed: { type: 'string' },
      profile: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      lease: { type: 'string' },
      out: { type: 'string', short: 'o' },
    },
  });
  const runOpts = runOptions(values.seed, values.profile);
  if (positionals.length === 0) throw new UsageError(`${command}: name at least one scenario file`);
  // Every file is validated before anything runs.
  const scenarios: Scenario[] = [];
  let invalid = false;
  for (const f of positionals) {
    const l = loadScenario(f, BUG_NAMES);
    if (l.ok) scenarios.push(l.scenario);
    else {
      invalid = true;
      for (const m of l.messages) console.error(m);
    }
  }
  if (invalid) return 2;
  switch (command) {
    case 'run':
      return run(scenarios, runOpts, values.quiet === true, values.json === true, values.verbose === true);
    case 'trace': {
      const r = runScenario(one(scenarios, command), runOpts);
      for (const e of r.trace.events) console.log(formatEvent(e));
      return r.passed ? 0 : 1;
    }
    case 'explain': {
      const r = runScenario(one(scenarios, command), runOpts);
      const s = r.scenario;
      if (s.description !== undefined) console.log(`${s.name}: ${s.description.trim()}\n`);
      for (const line of explain(r, values.lease)) console.log(line);
      return r.passed ? 0 : 1;
    }
    case 'render': {
      if (values.out === undefined) throw new UsageError('render: name the output file with -o OUT.html');
      const r = runScenario(one(scenarios, command), runOpts);
      writeFileSync(values.out, renderTimelineHtml(r));
      console.log(`wrote ${values.out} (${r.assertions.filter((a) => a.pass).length}/${r.assertions.length} assertions passed, trace sha256 ${r.trace.hash()})`);
      return r.passed ? 0 : 1;
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

function run(scenarios: readonly Scenario[], opts: RunOptions, quiet: boolean, json: boolean, verbose: boolean): number {
  const results = scenarios.map((s) => runScenario(s, opts));
  if (json) {
    console.log(JSON.stringify(results.map(toJson), null, 2));
  } else {
    for (const r of results) {
      console.log(`== ${r.scenario.name} (${r.scenario.file}): profile ${r.profile}, seed ${r.seed}, ${r.scenario.cluster.members} members`);
      if (!quiet) for (const line of narrate(r, { verbose })) console.log(line);
      for (const line of summary(r)) console.log(line);
      console.log('');
    }
  }
  return results.every((r) => r.passed) ? 0 : 1;
}

function runOptions(seed: string | undefined, profile: string | undefined): RunOptions {
  const out: { seed?: number; profile?: 'v3.4' | 'v3.5' } = {};
  if (seed !== undefined) {
    if (!/^\d+$/.test(seed)) throw new UsageError(`--seed takes a non-negative integer, got ${JSON.stringify(seed)}`);
    out.seed = Number(seed);
  }
  if (profile !== undefined) {
    if (profile !== 'v3.4' && profile !== 'v3.5') throw new UsageError(`--profile takes v3.4 or v3.5, got ${JSON.stringify(profile)}`);
    out.profile = profile;
  }
  return out;
}

function one(scenarios: readonly Scenario[], command: string): Scenario {
  if (scenarios.length !== 1) throw new UsageError(`${command} takes exactly one scenario file`);
  return scenarios[0]!;
}

const argv = process.argv.slice(2);
try {
  if (argv[0] === 'diff') {
    process.exitCode = await runDiff(argv.slice(1), { out: (l) => console.log(l), err: (l) => console.error(l) });
  } else if (argv[0] === 'playground') {
    process.exitCode = await runPlayground(argv.slice(1), { out: (l) => console.log(l), err: (l) => console.error(l) });
  } else if (argv[0] === 'check') {
    process.exitCode = await runCheck(argv.slice(1), processCheckIO());
  } else process.exitCode = main(argv);
} catch (e) {
  if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`lessor-sim: ${(e as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else throw e;
}
