/**
 * `lessor-sim check`: a property campaign over worker threads. Prints the seed to reproduce, a progress
 * line on stderr when it is a terminal, and a summary grouped by finding class; writes shrunk
 * counterexamples with --out. Exit code 0 when no run violated a property (or, with --allow-known, when
 * every violation has a finding class), 1 otherwise, 2 on bad usage.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CampaignSpec, RunOutcome } from '../../properties/index.js';
import { CHECK_USAGE, UsageError, parseCheckOptions, reproduceLine, shardIndices, type CheckOptions } from './check-options.js';
import { runPool } from './worker-pool.js';

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
    fixes: o.fixes,
    shrink: o.out !== undefined,
    ...(o.properties !== undefined ? { properties: o.properties } : {}),
  };
  io.err(`lessor-sim check: campaign seed ${o.seed}${o.seedGiven ? '' : ' (random)'}, ${o.runs ?? 'unbounded'} runs, shard ${o.shard.index}/${o.shard.count}, ${o.workers} workers`);
  const outcomes: RunOutcome[] = [];
  const started = Date.now();
  let violations = 0;
  let lastDraw = 0;
  const draw = (final: boolean): void => {
    if (!io.errIsTTY) return;
    const now = Date.now();
    if (!final && now - lastDraw < PROGRESS_EVERY_MS) return;
    lastDraw = now;
    const rate = outcomes.length / Math.max((now - started) / 1000, 1e-3);
    const line = `${outcomes.length} runs, ${violations} violations, ${rate.toFixed(1)} runs/s`;
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
      draw(false);
    },
    () => Date.now() - started >= budgetMs,
  );
  await pool.done;
  draw(true);
  const seconds = (Date.now() - started) / 1000;
  outcomes.sort((a, b) => a.index - b.index);
  summarize(o, outcomes, seconds, io);
  const unexplained = outcomes.filter((r) => r.violation !== undefined && r.classification?.finding === undefined).length;
  return violations === 0 || (o.allowKnown && unexplained === 0) ? 0 : 1;
}

function summarize(o: CheckOptions, outcomes: readonly RunOutcome[], seconds: number, io: CheckIO): void {
  const failing = outcomes.filter((r) => r.violation !== undefined);
  const range = outcomes.length === 0 ? 'none' : `indices ${outcomes[0]!.index}..${outcomes.at(-1)!.index}`;
  io.out(
    `${outcomes.length} runs (${range}), ${failing.length} with a violation, ${(outcomes.length / Math.max(seconds, 1e-3)).toFixed(1)} runs/s on ${o.workers} workers`,
  );
  if (o.out !== undefined && failing.length > 0) mkdirSync(o.out, { recursive: true });
  for (const r of failing) {
    const v = r.violation!;
    io.out(`  run ${r.index} (run seed ${r.runSeed}): ${v.property} at ${(v.atUs / 1e6).toFixed(6)} s, trace line ${v.traceLine}: ${v.message}`);
    io.out(`    class: ${classLine(r)}`);
    if (o.out !== undefined && r.counterexample !== undefined) {
      const file = join(o.out, `check-${o.seed}-${r.index}-${v.property}.yaml`);
      writeFileSync(file, r.counterexample);
      io.out(`    counterexample: ${file}`);
    }
  }
  const byProperty = new Map<string, number>();
  for (const r of failing) byProperty.set(r.violation!.property, (byProperty.get(r.violation!.property) ?? 0) + 1);
  if (byProperty.size > 0) io.out(`violations by property: ${[...byProperty].map(([p, n]) => `${p} ${n}`).join(', ')}`);
  const byClass = new Map<string, RunOutcome[]>();
  for (const r of failing) {
    const c = r.classification?.finding ?? UNEXPLAINED;
    byClass.set(c, [...(byClass.get(c) ?? []), r]);
  }
  if (byClass.size > 0) {
    io.out('violations by finding class (docs/findings/CLASS.md):');
    const order = [...byClass.keys()].sort((a, b) => (a === UNEXPLAINED ? 1 : b === UNEXPLAINED ? -1 : a.localeCompare(b)));
    for (const c of order) {
      const rs = byClass.get(c)!;
      io.out(`  ${c.padEnd(36)} ${String(rs.length).padStart(5)}  runs ${rs.map((r) => r.index).join(', ')}`);
    }
  }
  io.out(`reproduce: ${reproduceLine(o)}${o.out === undefined && failing.length > 0 ? ' --out DIR   (to shrink and write counterexamples)' : ''}`);
}

const UNEXPLAINED = 'unexplained';

/** The class of a failing run, and any other fix that also removes it. */
function classLine(r: RunOutcome): string {
  const c = r.classification;
  if (c === undefined || c.finding === undefined) return `${UNEXPLAINED} (no proposed fix removes it)`;
  const [first, ...others] = c.fixes;
  return `${c.finding} (removed by fix ${first}${others.length > 0 ? `; also by ${others.join(', ')}` : ''})`;
}
