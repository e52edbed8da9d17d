/**
 * The historical-bug scenario library (scenarios/bugs/): files named `<base>.<variant>.yaml`, where every
 * base has a `buggy` and a `fixed` variant and may have more (`v3.4`, `persist-off`) that reproduce the
 * buggy outcome by other settings. Runs are memoised: each (file, settings) pair replays once per test run.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { parseScenario, formatError } from '../../src/scenario/parse.js';
import { runScenario, type RunResult } from '../../src/scenario/replay/runner.js';
import type { Scenario, Step } from '../../src/scenario/types.js';

export const BUGS_DIR = resolve(__dirname, '../../scenarios/bugs');

export interface BugFile {
  readonly file: string;
  readonly base: string;
  readonly variant: string;
  readonly text: string;
}

export interface BugScenarios {
  readonly base: string;
  readonly buggy: Scenario;
  readonly fixed: Scenario;
  /** Further variants that must reproduce the buggy outcome, by variant name. */
  readonly others: ReadonlyMap<string, Scenario>;
}

export const bugFiles: readonly BugFile[] = readdirSync(BUGS_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((file) => {
    const m = /^([^.]+)\.(.+)\.yaml$/.exec(file);
    if (m === null) throw new Error(`${file}: expected <base>.<variant>.yaml`);
    return { file, base: m[1]!, variant: m[2]!, text: readFileSync(join(BUGS_DIR, file), 'utf8') };
  });

export function parseBugFile(f: BugFile): Scenario {
  const p = parseScenario(f.text, join('scenarios/bugs', f.file), { knownBugs: BUG_NAMES });
  if (!p.ok) throw new Error(`${f.file} does not parse:\n${p.errors.map(formatError).join('\n')}`);
  return p.scenario;
}

/** Every base with its variants; throws when a base lacks its buggy or fixed file. */
export function bugScenarios(): BugScenarios[] {
  const bases = [...new Set(bugFiles.map((f) => f.base))];
  return bases.map((base) => {
    const variants = new Map(bugFiles.filter((f) => f.base === base).map((f) => [f.variant, parseBugFile(f)] as const));
    const buggy = variants.get('buggy');
    const fixed = variants.get('fixed');
    if (buggy === undefined || fixed === undefined) throw new Error(`${base}: needs both a .buggy and a .fixed file`);
    variants.delete('buggy');
    variants.delete('fixed');
    return { base, buggy, fixed, others: variants };
  });
}

/** The steps of `steps` under the profile, cluster and bug switches of `settings`. */
export function withSettings(steps: Scenario, settings: Pick<Scenario, 'profile' | 'cluster' | 'bugs'>): Scenario {
  return { ...steps, profile: settings.profile, cluster: settings.cluster, bugs: settings.bugs };
}

const runs = new Map<string, RunResult>();

/** Replays a scenario once per distinct (file, profile, cluster, bugs). */
export function run(s: Scenario): RunResult {
  const key = JSON.stringify([s.file, s.profile, s.cluster, s.bugs], bigints);
  let r = runs.get(key);
  if (r === undefined) {
    r = runScenario(s);
    runs.set(key, r);
  }
  return r;
}

/** The failed expects of a run, as `line N: text — got X`. */
export function failures(r: RunResult): string[] {
  return r.assertions.filter((a) => !a.passed).map((a) => `line ${a.step.pos.line}: ${a.text} — got ${a.got}`);
}

/** Steps without source positions, so two files' steps compare equal when they say the same thing. */
export function stepsWithoutPositions(steps: readonly Step[]): unknown {
  return JSON.parse(JSON.stringify(steps, (k, v: unknown) => (k === 'pos' ? undefined : bigints(k, v))));
}

export const nonExpectSteps = (s: Scenario): Step[] => s.steps.filter((st) => st.kind !== 'expect');

function bigints(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `${v}n` : v;
}
