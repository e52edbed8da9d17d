/** `lessor-sim check` options: the flags validated, or a usage error (exit code 2). */
import { availableParallelism } from 'node:os';
import type { Micros } from '../../clock/time.js';
import { isBugName, type BugName } from '../../switches/bugs.js';
import { FIX_NAMES, isFixName, type FixName } from '../../switches/fixes.js';
import { PROPERTY_NAMES, isPropertyName, type PropertyName } from '../../properties/monitors/property-names.js';
import { formatDuration, parseDuration } from '../../scenario/duration.js';
import { bool, list as flagList, str, type Invocation } from '../command.js';
import { UsageError } from '../errors.js';
import { shellCommand } from '../../report/terminal-text.js';
import { intFlag, MAX_CAMPAIGN_SEED, MAX_RUNS, MAX_SHARDS, MAX_WORKERS } from '../int-flag.js';
import { defaultWorkers } from './worker-count.js';

export interface CheckCommandOptions {
  readonly runs: number | undefined;
  readonly seed: number;
  readonly seedGiven: boolean;
  readonly budgetUs: Micros | undefined;
  readonly properties: readonly PropertyName[] | undefined;
  readonly bugs: readonly BugName[];
  readonly fixes: readonly FixName[];
  readonly allowKnown: boolean;
  /** Exit 0 whatever the runs found (1 and 3 become 0): a shard leaves the verdict to `check merge`. */
  readonly exitZero: boolean;
  readonly out: string | undefined;
  readonly shard: { readonly index: number; readonly count: number };
  readonly workers: number;
  readonly maxEvents: number | undefined;
  /** Each run's wall-clock limit, ms. */
  readonly timeoutMs: number | undefined;
}

const list = (vs: readonly string[]): string[] =>
  vs
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The campaign `check`'s flags ask for; `randomSeed` draws the seed when none is given. */
export function checkOptions(inv: Pick<Invocation, 'flags'>, randomSeed: () => number): CheckCommandOptions {
  const flag = (name: string): string | undefined => str(inv, name);
  const v = {
    runs: flag('runs'),
    seed: flag('seed'),
    'time-budget': flag('time-budget'),
    shard: flag('shard'),
    workers: flag('workers'),
    out: flag('out'),
    'max-events': flag('max-events'),
    timeout: flag('timeout'),
  };
  const properties = list(flagList(inv, 'property'));
  for (const p of properties)
    if (!isPropertyName(p))
      throw new UsageError(`unknown property ${JSON.stringify(p)}; known: ${PROPERTY_NAMES.join(', ')}`);
  const bugs = list(flagList(inv, 'bugs'));
  for (const b of bugs) if (!isBugName(b)) throw new UsageError(`unknown bug ${JSON.stringify(b)}`);
  const named = list(flagList(inv, 'fixes'));
  const fixes = named.includes('all') ? FIX_NAMES : named;
  for (const f of fixes)
    if (!isFixName(f)) throw new UsageError(`unknown fix ${JSON.stringify(f)}; known: ${FIX_NAMES.join(', ')}, or all`);
  let budgetUs: Micros | undefined;
  if (v['time-budget'] !== undefined) {
    const d = parseDuration(v['time-budget']);
    if (!d.ok || d.us <= 0)
      throw new UsageError(
        `--time-budget takes a positive duration such as 60s, got ${JSON.stringify(v['time-budget'])}`,
      );
    budgetUs = d.us;
  }
  let shard = { index: 0, count: 1 };
  if (v.shard !== undefined) {
    // 0-based, as a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, so the index passes through unchanged.
    const m = /^(\d+)\/(\d+)$/.exec(v.shard);
    const [i, n] = m === null ? [-1, 0] : [Number(m[1]), Number(m[2])];
    if (n < 1 || i < 0 || i >= n || n > MAX_SHARDS)
      throw new UsageError(
        `--shard takes i/n with 0 <= i < n <= ${MAX_SHARDS} (0-based), got ${JSON.stringify(v.shard)}`,
      );
    shard = { index: i, count: n };
  }
  const runs =
    v.runs !== undefined ? intFlag('--runs', v.runs, 0, MAX_RUNS) : budgetUs === undefined ? 1000 : undefined;
  // The runs this process runs: its shard's slice of them.
  const mine = runs === undefined ? undefined : sliceSize(runs, shard);
  return {
    runs,
    seed: v.seed !== undefined ? intFlag('--seed', v.seed, 0, MAX_CAMPAIGN_SEED) : randomSeed(),
    seedGiven: v.seed !== undefined,
    budgetUs,
    properties: properties.length > 0 ? (properties as PropertyName[]) : undefined,
    bugs: bugs as BugName[],
    fixes: fixes as FixName[],
    allowKnown: bool(inv, 'allow-known'),
    exitZero: bool(inv, 'exit-zero'),
    out: v.out,
    shard,
    workers:
      v.workers !== undefined
        ? intFlag('--workers', v.workers, 1, MAX_WORKERS)
        : defaultWorkers(availableParallelism(), mine),
    maxEvents: v['max-events'] !== undefined ? intFlag('--max-events', v['max-events'], 1) : undefined,
    timeoutMs: timeoutOf(v.timeout),
  };
}

function timeoutOf(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const d = parseDuration(v);
  if (!d.ok || d.us <= 0)
    throw new UsageError(`--timeout takes a positive wall-clock duration such as 30s, got ${JSON.stringify(v)}`);
  return d.us / 1000;
}

export type Shard = CheckCommandOptions['shard'];

/** Shard `index` of `count` of a bounded campaign: the run indices [from, to), a contiguous slice of [0, runs). */
export function shardSlice(runs: number, { index, count }: Shard): { readonly from: number; readonly to: number } {
  return { from: Math.floor((index * runs) / count), to: Math.floor(((index + 1) * runs) / count) };
}

/** How many runs of a bounded campaign the shard runs. */
export function sliceSize(runs: number, shard: Shard): number {
  const { from, to } = shardSlice(runs, shard);
  return to - from;
}

/** Whether run `k` belongs to the shard: its slice, or every n-th index when the campaign is unbounded. */
export function inShard(k: number, runs: number | undefined, shard: Shard): boolean {
  if (runs === undefined) return k % shard.count === shard.index;
  const { from, to } = shardSlice(runs, shard);
  return k >= from && k < to;
}

/** The run indices of this shard, in order; the shards of a campaign share them out exactly. */
export function* shardIndices(o: Pick<CheckCommandOptions, 'runs' | 'shard'>): Generator<number> {
  if (o.runs === undefined) {
    for (let k = o.shard.index; ; k += o.shard.count) yield k;
  } else {
    const { from, to } = shardSlice(o.runs, o.shard);
    for (let k = from; k < to; k++) yield k;
  }
}

/** The command line that reproduces this campaign (or shard). */
export function reproduceLine(o: CheckCommandOptions): string {
  // Shell-quoted: names read back from a shard report are not trusted to be plain words.
  const parts = ['lessor-sim', 'check', '--seed', String(o.seed)];
  if (o.runs !== undefined) parts.push('--runs', String(o.runs));
  if (o.budgetUs !== undefined) parts.push('--time-budget', formatDuration(o.budgetUs));
  if (o.properties !== undefined) parts.push('--property', o.properties.join(','));
  if (o.bugs.length > 0) parts.push('--bugs', o.bugs.join(','));
  if (o.fixes.length > 0) parts.push('--fixes', o.fixes.length === FIX_NAMES.length ? 'all' : o.fixes.join(','));
  if (o.shard.count > 1) parts.push('--shard', `${o.shard.index}/${o.shard.count}`);
  if (o.maxEvents !== undefined) parts.push('--max-events', String(o.maxEvents));
  return shellCommand(parts);
}
