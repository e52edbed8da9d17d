/**
 * `lessor-sim check`: a property campaign (or one shard of it) over worker threads. Prints the seed to
 * reproduce, a progress line and the speed on stderr, and on stdout a summary grouped by finding class
 * that depends only on the campaign; writes shrunk counterexamples with --out, and a JUnit or JSON report.
 * Exit code 0 when no run violated a property (or, with --allow-known, when every violation has a finding
 * class), 1 otherwise, 2 on bad usage, 3 when none did but a run was stopped by its event budget or the
 * livelock guard; with --exit-zero, 0 for 1 and 3.
 */
import type { CampaignSpec, RunOutcome } from '../../properties/index.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { oneLine } from '../../report/terminal-text.js';
import { catchInterrupt, interruptedExitCode, type Interruption } from '../interrupt.js';
import { writeOutput } from '../output-path.js';
import type { CheckReporter } from '../commands/check-reporter.js';
import { reproduceLine, shardIndices, shardSlice, sliceSize, type CheckCommandOptions } from './check-options.js';
import { campaignKey, counterexampleFile, rangesOf, reportedRun } from './check-report.js';
import { campaignExitCode, summaryLines, type CampaignResult } from './summary.js';
import { writeCampaignReport } from './write-report.js';
import { runPool } from './worker-pool.js';

const PROGRESS_EVERY_MS = 250;

/** Runs the campaign `o` describes; writes the report `reporter` asks for, when given. */
export async function runCheck(
  o: CheckCommandOptions,
  io: CliIO,
  reporter: CheckReporter | undefined,
  version: string,
): Promise<number> {
  const startedAt = new Date();
  const spec: CampaignSpec = {
    seed: o.seed,
    bugs: o.bugs,
    fixes: o.fixes,
    shrink: o.out !== undefined,
    ...(o.properties !== undefined ? { properties: o.properties } : {}),
    ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
  };
  io.err(
    `lessor-sim check: campaign seed ${o.seed}${o.seedGiven ? '' : ' (random)'}, ` +
      `${o.runs ?? 'unbounded'} runs${shardText(o)}, ${workersText(o.workers)}`,
  );
  const outcomes: RunOutcome[] = [];
  const started = Date.now();
  let violations = 0;
  let stopped = 0;
  const total = o.runs === undefined ? undefined : sliceSize(o.runs, o.shard);
  let lastDraw = 0;
  const draw = (final: boolean): void => {
    if (!io.errIsTTY) return;
    const now = Date.now();
    if (!final && now - lastDraw < PROGRESS_EVERY_MS) return;
    lastDraw = now;
    const rate = outcomes.length / Math.max((now - started) / 1000, 1e-3);
    const line =
      `${outcomes.length}${total === undefined ? '' : `/${total}`} runs, ${violations} ` +
      `violations${stopped > 0 ? `, ${stopped} stopped` : ''}, ${rate.toFixed(1)} runs/s`;
    if (io.progress !== undefined) io.progress(line);
    else io.err(line);
  };
  const budgetMs = o.budgetUs === undefined ? Infinity : o.budgetUs / 1000;
  const files = new Map<number, string>();
  const pool = runPool(
    spec,
    o.workers,
    shardIndices(o),
    (r) => {
      outcomes.push(r);
      if (r.violation !== undefined) violations++;
      if (r.stopped !== undefined) stopped++;
      // Written as each arrives, so an interrupted or crashed campaign keeps what it shrank.
      if (o.out !== undefined && r.violation !== undefined && r.counterexample !== undefined) {
        const file = counterexampleFile(o.out, o.seed, r.index, r.violation.property);
        writeOutput(file, r.counterexample);
        files.set(r.index, file);
      }
      draw(false);
    },
    () => Date.now() - started >= budgetMs,
    o.timeoutMs,
  );
  let interrupted: Interruption | undefined;
  const release = catchInterrupt((signal) => {
    interrupted = signal;
    io.err(`lessor-sim check: ${signal}: stopping; writing what ${outcomes.length} runs found (again to quit now)`);
    pool.interrupt();
  });
  try {
    await pool.done;
  } finally {
    release();
  }
  draw(true);
  const seconds = (Date.now() - started) / 1000;
  outcomes.sort((a, b) => a.index - b.index);
  const notable = outcomes.filter((r) => r.violation !== undefined || r.stopped !== undefined);
  const result: CampaignResult = {
    total: outcomes.length,
    first: outcomes[0]?.index,
    last: outcomes.at(-1)?.index,
    notable: notable.map(({ counterexample: _, ...r }) => r),
    ...(interrupted === undefined ? {} : { interrupted }),
  };
  const context = { reproduce: reproduceLine(o), shrink: o.out !== undefined, files };
  for (const line of summaryLines(result, context)) io.out(oneLine(line));
  io.err(
    `lessor-sim check: ${outcomes.length} runs in ${seconds.toFixed(1)} s, ` +
      `${(outcomes.length / Math.max(seconds, 1e-3)).toFixed(1)} runs/s on ${workersText(o.workers)}`,
  );
  writeCampaignReport(reporter, o.properties, result, context, seconds, startedAt, (file) => ({
    campaign: campaignKey(o, version),
    shard: o.shard,
    ran: rangesOf(outcomes.map((r) => r.index)),
    runs: notable.map((r) => reportedRun(r, files.get(r.index), file)),
    workers: o.workers,
    seconds,
    ...(interrupted === undefined ? {} : { interrupted }),
  }));
  if (interrupted !== undefined) return interruptedExitCode(interrupted);
  return o.exitZero ? EXIT.ok : campaignExitCode(result, o.allowKnown);
}

function shardText(o: CheckCommandOptions): string {
  if (o.shard.count === 1) return '';
  const share =
    o.runs === undefined ? `every ${o.shard.count}th from ${o.shard.index}` : sliceText(shardSlice(o.runs, o.shard));
  return `, shard ${o.shard.index}/${o.shard.count} (${share})`;
}

const workersText = (n: number): string => `${n} worker${n === 1 ? '' : 's'}`;

const sliceText = ({ from, to }: { from: number; to: number }): string =>
  to > from ? `runs ${from}..${to - 1}` : 'no runs';
