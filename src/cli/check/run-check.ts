/**
 * `lessor-sim check`: a property campaign over worker threads. Prints the seed to reproduce, a progress
 * line on stderr when it is a terminal, and a summary; writes shrunk counterexamples with --out. Exit
 * code 0 when no run violated a property, 1 when one did, 2 on bad usage, 3 when none did but a run was
 * stopped by its event budget or the livelock guard.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSeconds } from '../../clock/time.js';
import type { CampaignSpec, RunOutcome } from '../../properties/index.js';
import { CHECK_USAGE, UsageError, parseCheckOptions, reproduceLine, shardIndices, type CheckOptions } from './check-options.js';
import { runPool } from './worker-pool.js';
import { STOPPED_EXIT_CODE } from '../limits.js';

export interface CheckIO {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Whether stderr is a terminal (then a progress line is drawn on it). */
  readonly errIsTTY: boolean;
  /** Redraws the progress line in place. */
  readonly progress?: (line: string) => void;
}

const PROGRESS_EVERY_MS = 250;

export async function runCheck(argv: string[], io: CheckIO): Promise<number> {
  let o: CheckOptions;
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.out(CHECK_USAGE);
      return 0;
    }
    o = parseCheckOptions(argv, () => Date.now() % 2 ** 31);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`lessor-sim check: ${e.message}\n\n${CHECK_USAGE}`);
    return 2;
  }
  const spec: CampaignSpec = {
    seed: o.seed,
    bugs: o.bugs,
    shrink: o.out !== undefined,
    ...(o.properties !== undefined ? { properties: o.properties } : {}),
    ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
  };
  io.err(`lessor-sim check: campaign seed ${o.seed}${o.seedGiven ? '' : ' (random)'}, ${o.runs ?? 'unbounded'} runs, shard ${o.shard.index}/${o.shard.count}, ${o.workers} workers`);
  const outcomes: RunOutcome[] = [];
  const started = Date.now();
  let violations = 0;
  let stopped = 0;
  const total = shardSize(o);
  let lastDraw = 0;
  const draw = (final: boolean): void => {
    if (!io.errIsTTY) return;
    const now = Date.now();
    if (!final && now - lastDraw < PROGRESS_EVERY_MS) return;
    lastDraw = now;
    const rate = outcomes.length / Math.max((now - started) / 1000, 1e-3);
    const line = `${outcomes.length}${total === undefined ? '' : `/${total}`} runs, ${violations} violations${stopped > 0 ? `, ${stopped} stopped` : ''}, ${rate.toFixed(1)} runs/s`;
    if (io.progress !== undefined) io.progress(line);
    else io.err(line);
  };
  const budgetMs = o.budgetUs === undefined ? Infinity : o.budgetUs / 1000;
  const pool = runPool(
    spec,
    o.workers,
    shardIndices(o),
    (r) => {
      outcomes.push(r);
      if (r.violation !== undefined) violations++;
      if (r.stopped !== undefined) stopped++;
      draw(false);
    },
    () => Date.now() - started >= budgetMs,
    o.timeoutMs,
  );
  await pool.done;
  draw(true);
  const seconds = (Date.now() - started) / 1000;
  outcomes.sort((a, b) => a.index - b.index);
  summarize(o, outcomes, seconds, io);
  return violations > 0 ? 1 : stopped > 0 ? STOPPED_EXIT_CODE : 0;
}

/** How many runs this shard has, when the campaign is bounded. */
function shardSize(o: CheckOptions): number | undefined {
  if (o.runs === undefined) return undefined;
  const { index, count } = o.shard;
  return Math.floor((index * o.runs) / count) - Math.floor(((index - 1) * o.runs) / count);
}

function summarize(o: CheckOptions, outcomes: readonly RunOutcome[], seconds: number, io: CheckIO): void {
  const failing = outcomes.filter((r) => r.violation !== undefined);
  const range = outcomes.length === 0 ? 'none' : `indices ${outcomes[0]!.index}..${outcomes.at(-1)!.index}`;
  io.out(
    `${outcomes.length} runs (${range}), ${failing.length} with a violation${stoppedCount(outcomes)}, ${(outcomes.length / Math.max(seconds, 1e-3)).toFixed(1)} runs/s on ${o.workers} workers`,
  );
  if (o.out !== undefined && failing.length > 0) mkdirSync(o.out, { recursive: true });
  for (const r of failing) {
    const v = r.violation!;
    io.out(`  run ${r.index} (run seed ${r.runSeed}): ${v.property} at ${(v.atUs / 1e6).toFixed(6)} s, trace line ${v.traceLine}: ${v.message}`);
    if (o.out !== undefined && r.counterexample !== undefined) {
      const file = join(o.out, `check-${o.seed}-${r.index}-${v.property}.yaml`);
      writeFileSync(file, r.counterexample);
      io.out(`    counterexample: ${file}`);
    }
  }
  for (const r of outcomes) {
    const s = r.stopped;
    if (s !== undefined) io.out(`  run ${r.index} (run seed ${r.runSeed}): stopped at ${formatSeconds(s.atUs)} s after ${s.events} events, not judged: ${s.message}`);
  }
  const byProperty = new Map<string, number>();
  for (const r of failing) byProperty.set(r.violation!.property, (byProperty.get(r.violation!.property) ?? 0) + 1);
  if (byProperty.size > 0) io.out(`violations by property: ${[...byProperty].map(([p, n]) => `${p} ${n}`).join(', ')}`);
  io.out(`reproduce: ${reproduceLine(o)}${o.out === undefined && failing.length > 0 ? ' --out DIR   (to shrink and write counterexamples)' : ''}`);
}

function stoppedCount(outcomes: readonly RunOutcome[]): string {
  const n = outcomes.filter((r) => r.stopped !== undefined).length;
  return n === 0 ? '' : `, ${n} stopped`;
}
