/** What the replaying commands share: --seed and --profile, and loading every file before anything runs. */
import { appStepsOf } from '../../scenario/replay/app-hook.js';
import { readFileSync } from 'node:fs';
import { BUG_NAMES } from '../../switches/bugs.js';
import type { RunOptions, RunResult } from '../../scenario/replay/runner.js';
import type { Scenario, ScenarioError } from '../../scenario/types.js';
import { str, type FlagSpec, type Invocation } from '../command.js';
import { CliError, InvalidScenarioError, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { intFlag } from '../int-flag.js';
import { parseLimits } from '../limits.js';
import { loadScenario } from '../load.js';
import type { ReplayCli } from '../replay.js';
import { defaultCluster } from '../../serve/default-cluster.js';
import { parseRecord, type ServedRecord } from '../../serve/inputs.js';

export const SCENARIO_FLAGS: Readonly<Record<string, FlagSpec>> = {
  seed: { type: 'string', value: 'N', help: "override the file's seed (a non-negative integer)" },
  profile: { type: 'string', value: 'v3.4|v3.5', help: "override the file's etcd version profile" },
  'max-events': { type: 'string', value: 'N', help: 'end the replay after N simulated events (exit 3)' },
  timeout: { type: 'string', value: 'D', help: 'end the replay after D of wall time, e.g. 30s or 5m (exit 3)' },
  input: {
    type: 'string',
    value: 'LOG',
    help: "replay a served run from what `serve --record LOG` wrote (without FILE: serve's default cluster)",
  },
};

/**
 * --max-events and --timeout as the replay guard takes them, and --input's record; `json` turns the progress
 * line off.
 */
export function replayCli(inv: Invocation, json = false): ReplayCli {
  const limits = parseLimits(str(inv, 'max-events'), str(inv, 'timeout'));
  if (typeof limits === 'string') throw new UsageError(limits);
  const input = str(inv, 'input');
  return input === undefined ? { limits, json } : { limits, json, served: readRecord(input) };
}

function readRecord(file: string): ServedRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--input: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const r = parseRecord(text);
  if (typeof r === 'string') throw new UsageError(`--input: ${file}: ${r}`);
  return r;
}

/**
 * The scenarios a replaying command runs: its FILE arguments, or with --input and no FILE serve's default
 * cluster. A record is replayed with the seed and profile it was served with, against the scenario it served.
 */
export function scenariosOf(inv: Invocation, cmd: { name: string; args: string }, cli: ReplayCli): Scenario[] {
  const files = inv.positionals;
  const served = cli.served;
  if (served === undefined) {
    if (files.length === 0)
      throw new UsageError(`${cmd.name}: name ${cmd.args.endsWith('...') ? 'at least one' : 'a'} FILE`);
    return loadAll(files);
  }
  if (files.length > 1) throw new UsageError(`--input replays one served run: name one FILE, got ${files.length}`);
  const h = served.header;
  if (files.length === 0 && h.scenario !== null)
    throw new UsageError(`--input: the record served ${h.scenario}; name that FILE`);
  // A served run's steps on programs replay from the record: what they met there, and what the programs did.
  const [s] = files.length === 0 ? [defaultCluster()] : loadAll(files, { apps: true });
  if (s!.name !== h.name)
    throw new UsageError(
      `--input: the record served scenario ${JSON.stringify(h.name)}, not ${JSON.stringify(s!.name)}`,
    );
  const opts = runOptions(inv);
  if ((opts.seed !== undefined && opts.seed !== h.seed) || (opts.profile !== undefined && opts.profile !== h.profile))
    throw new UsageError(`--input: the record was served with --seed ${h.seed} --profile ${h.profile}`);
  return [s!];
}

export function runOptions(inv: Invocation): RunOptions {
  const seed = str(inv, 'seed');
  const profile = str(inv, 'profile');
  const out: { seed?: number; profile?: 'v3.4' | 'v3.5' } = {};
  if (seed !== undefined) out.seed = intFlag('--seed', seed, 0);
  if (profile !== undefined) {
    if (profile !== 'v3.4' && profile !== 'v3.5')
      throw new UsageError(`--profile takes v3.4 or v3.5, got ${JSON.stringify(profile)}`);
    out.profile = profile;
  }
  return out;
}

/**
 * Every file is read and validated before anything runs; all problems of all files are reported at once.
 * A file with steps on programs under test runs only under serve (`apps: true`).
 */
export function loadAll(files: readonly string[], opts: { readonly apps?: boolean } = {}): Scenario[] {
  const scenarios: Scenario[] = [];
  const problems: ScenarioError[] = [];
  for (const f of files) {
    const l = loadScenario(f, BUG_NAMES);
    if (!l.ok) problems.push(...l.errors);
    else
      scenarios.push(
        opts.apps === true ? refuseUserHolders(l.scenario) : refuseAppSteps(refuseUserHolders(l.scenario)),
      );
  }
  if (problems.length > 0) throw new InvalidScenarioError(problems);
  return scenarios;
}

/** Steps on a program under test (pause { app }, kill, cut …) act on a real process: only serve has one. */
function refuseAppSteps(s: Scenario): Scenario {
  const [first] = appStepsOf(s);
  if (first !== undefined)
    // One line, no synopsis: the command was right, the file is for another one.
    throw new CliError(
      `${s.file}:${first.step.pos.line}:${first.step.pos.col}: ${first.step.kind} acts on program ${first.app}, ` +
        `a program under test: run the file with lessor-sim serve FILE -- CMD (or --app ${first.app}=CMD)`,
      EXIT.usage,
    );
  return s;
}

/** A holder written in TypeScript (`strategy: user:<name>`) runs only from the user's code, never from here. */
function refuseUserHolders(s: Scenario): Scenario {
  for (const step of s.steps)
    if (step.kind === 'holder' && step.strategy.startsWith('user:'))
      throw new UsageError(
        `${s.file}:${step.pos.line}:${step.pos.col}: holder ${step.name} uses strategy ${step.strategy}, a holder ` +
          'written in TypeScript: replay the file from your own code with runScenarioAsync and userHolders ' +
          '(docs/holders.md)',
      );
  return s;
}

/**
 * The work of every command that replays one file: its flags checked, the file loaded and validated, then
 * replayed under --seed, --profile and the limits. `before` sees the loaded file and runs before any work
 * (an output path to check, flags that depend on the file), so what it refuses is refused before a replay.
 */
export async function replayOneFile(
  inv: Invocation,
  cmd: { name: string; args: string },
  before?: (s: Scenario) => void,
): Promise<RunResult> {
  const opts = runOptions(inv);
  const cli = replayCli(inv);
  const [scenario] = scenariosOf(inv, cmd, cli);
  before?.(scenario!);
  const { replay } = await import('../replay.js');
  return replay(scenario!, opts, cli, inv.io);
}
