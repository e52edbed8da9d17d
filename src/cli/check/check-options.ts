/** `lessor-sim check` options: parsed and validated, or a usage error (exit code 2). */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { Micros } from '../../clock/time.js';
import { isBugName, type BugName } from '../../lessor/bugs.js';
import { FIX_NAMES, isFixName, type FixName } from '../../lessor/fixes.js';
import { PROPERTY_NAMES, isPropertyName, type PropertyName } from '../../properties/index.js';
import { formatDuration, parseDuration } from '../../scenario/duration.js';

export const CHECK_USAGE = `usage:
  lessor-sim check [--runs N] [--seed S] [--time-budget 60s] [--property NAME]... [--bugs a,b]
                   [--fixes a,b|all] [--allow-known] [--out DIR] [--shard i/n] [--workers N]

Runs a campaign of generated scenarios (3-member clusters mostly, with faults) against the property
suite. Run i of a campaign is generated from (seed, i) alone, so shards and worker counts never change a
run's verdict. Each violation is replayed with each proposed fix on and named after the finding class
whose fix removes it (docs/findings/), or marked unexplained. Exit codes: 0 no violation (or, with
--allow-known, none unexplained), 1 a violation, 2 bad usage.

  --runs N          runs in the whole campaign (default 1000, or unbounded with --time-budget)
  --seed S          campaign seed (default: random, printed)
  --time-budget D   stop starting runs after D (e.g. 60s, 5m)
  --property NAME   check only these properties (repeatable or comma-separated); default all:
                    ${PROPERTY_NAMES.join(', ')}
  --bugs a,b        historical bug switches every run has on
  --fixes a,b|all   proposed fixes every run has on (${FIX_NAMES.join(', ')})
  --allow-known     exit 0 when every violation belongs to a documented finding class
  --out DIR         shrink each failing run and write its counterexample scenario to DIR
  --shard i/n       run the i-th of n contiguous slices of the campaign's runs
  --workers N       worker threads (default: the machine's available parallelism)`;

export class UsageError extends Error {}

export interface CheckOptions {
  readonly runs: number | undefined;
  readonly seed: number;
  readonly seedGiven: boolean;
  readonly budgetUs: Micros | undefined;
  readonly properties: readonly PropertyName[] | undefined;
  readonly bugs: readonly BugName[];
  readonly fixes: readonly FixName[];
  readonly allowKnown: boolean;
  readonly out: string | undefined;
  readonly shard: { readonly index: number; readonly count: number };
  readonly workers: number;
}

const list = (vs: readonly string[] | undefined): string[] => (vs ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');

function int(flag: string, v: string, min: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`${flag} takes an integer of at least ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

export function parseCheckOptions(argv: readonly string[], randomSeed: () => number): CheckOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: {
        runs: { type: 'string' },
        seed: { type: 'string' },
        'time-budget': { type: 'string' },
        property: { type: 'string', multiple: true },
        bugs: { type: 'string', multiple: true },
        fixes: { type: 'string', multiple: true },
        'allow-known': { type: 'boolean' },
        out: { type: 'string' },
        shard: { type: 'string' },
        workers: { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  const properties = list(v.property);
  for (const p of properties) if (!isPropertyName(p)) throw new UsageError(`unknown property ${JSON.stringify(p)}; known: ${PROPERTY_NAMES.join(', ')}`);
  const bugs = list(v.bugs);
  for (const b of bugs) if (!isBugName(b)) throw new UsageError(`unknown bug ${JSON.stringify(b)}`);
  const named = list(v.fixes);
  const fixes = named.includes('all') ? FIX_NAMES : named;
  for (const f of fixes) if (!isFixName(f)) throw new UsageError(`unknown fix ${JSON.stringify(f)}; known: ${FIX_NAMES.join(', ')}, or all`);
  let budgetUs: Micros | undefined;
  if (v['time-budget'] !== undefined) {
    const d = parseDuration(v['time-budget']);
    if (!d.ok || d.us <= 0) throw new UsageError(`--time-budget takes a positive duration such as 60s, got ${JSON.stringify(v['time-budget'])}`);
    budgetUs = d.us;
  }
  let shard = { index: 1, count: 1 };
  if (v.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(v.shard);
    const [i, n] = m === null ? [0, 0] : [Number(m[1]), Number(m[2])];
    if (n < 1 || i < 1 || i > n) throw new UsageError(`--shard takes i/n with 1 <= i <= n, got ${JSON.stringify(v.shard)}`);
    shard = { index: i, count: n };
  }
  const runs = v.runs !== undefined ? int('--runs', v.runs, 0) : budgetUs === undefined ? 1000 : undefined;
  return {
    runs,
    seed: v.seed !== undefined ? int('--seed', v.seed, 0) : randomSeed(),
    seedGiven: v.seed !== undefined,
    budgetUs,
    properties: properties.length > 0 ? (properties as PropertyName[]) : undefined,
    bugs: bugs as BugName[],
    fixes: fixes as FixName[],
    allowKnown: v['allow-known'] === true,
    out: v.out,
    shard,
    workers: v.workers !== undefined ? int('--workers', v.workers, 1) : availableParallelism(),
  };
}

/** The run indices of this shard: a contiguous slice of [0, runs), or every n-th index when unbounded. */
export function* shardIndices(o: CheckOptions): Generator<number> {
  const { index, count } = o.shard;
  const runs = o.runs;
  if (runs === undefined) {
    for (let k = index - 1; ; k += count) yield k;
  } else {
    for (let k = Math.floor(((index - 1) * runs) / count); k < Math.floor((index * runs) / count); k++) yield k;
  }
}

/** The command line that reproduces this campaign (or shard). */
export function reproduceLine(o: CheckOptions): string {
  const parts = ['lessor-sim check', `--seed ${o.seed}`];
  if (o.runs !== undefined) parts.push(`--runs ${o.runs}`);
  if (o.budgetUs !== undefined) parts.push(`--time-budget ${formatDuration(o.budgetUs)}`);
  if (o.properties !== undefined) parts.push(`--property ${o.properties.join(',')}`);
  if (o.bugs.length > 0) parts.push(`--bugs ${o.bugs.join(',')}`);
  if (o.fixes.length > 0) parts.push(`--fixes ${o.fixes.length === FIX_NAMES.length ? 'all' : o.fixes.join(',')}`);
  if (o.shard.count > 1) parts.push(`--shard ${o.shard.index}/${o.shard.count}`);
  return parts.join(' ');
}
