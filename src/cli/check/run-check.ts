/**
 * `lessor-sim check`: a property campaign over worker threads. Prints the seed to reproduce, a progress
 * line on stderr when it is a terminal, and a summary grouped by finding class; writes shrunk
 * counterexamples with --out. Exit code 0 when no run violated a property (or, with --allow-known, when
 * every violation has a finding class), 1 otherwise, 2 on bad usage, 3 when none did but a run was
 * stopped by its event budget or the livelock guard.
 */
import { join } from 'node:path';
import { formatSeconds } from '../../clock/time.js';
import type { CampaignSpec, RunOutcome } from '../../properties/index.js';
import { PROPERTY_NAMES } from '../../properties/monitors/property-names.js';
import type { CliIO } from '../io.js';
import { junitXml, type JUnitCase } from '../junit.js';
import { writeOutput } from '../output-path.js';
import { reproduceLine, shardIndices, type CheckCommandOptions } from './check-options.js';
import { runPool } from './worker-pool.js';
import { STOPPED_EXIT_CODE } from '../limits.js';

const PROGRESS_EVERY_MS = 250;

/** Runs the campaign `o` describes; writes its JUnit report to `junit` when given. */
export async function runCheck(o: CheckCommandOptions, io: CliIO, junit?: string): Promise<number> {
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
      `${o.runs ?? 'unbounded'} runs, shard ${o.shard.index}/${o.shard.count}, ${o.workers} workers`,
  );
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
    const line =
      `${outcomes.length}${total === undefined ? '' : `/${total}`} runs, ${violations} ` +
      `violations${stopped > 0 ? `, ${stopped} stopped` : ''}, ${rate.toFixed(1)} runs/s`;
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
  const files = summarize(o, outcomes, seconds, io);
  if (junit !== undefined) writeOutput(junit, checkJunit(o, outcomes, files, seconds, startedAt));
  const unexplained = outcomes.filter(
    (r) => r.violation !== undefined && r.classification?.finding === undefined,
  ).length;
  if (violations > 0 && !(o.allowKnown && unexplained === 0)) return 1;
  return stopped > 0 ? STOPPED_EXIT_CODE : 0;
}

/** How many runs this shard has, when the campaign is bounded. */
function shardSize(o: CheckCommandOptions): number | undefined {
  if (o.runs === undefined) return undefined;
  const { index, count } = o.shard;
  return Math.floor((index * o.runs) / count) - Math.floor(((index - 1) * o.runs) / count);
}

/** Prints the summary and writes the counterexamples; returns each written file by run index. */
function summarize(
  o: CheckCommandOptions,
  outcomes: readonly RunOutcome[],
  seconds: number,
  io: CliIO,
): ReadonlyMap<number, string> {
  const written = new Map<number, string>();
  const failing = outcomes.filter((r) => r.violation !== undefined);
  const range = outcomes.length === 0 ? 'none' : `indices ${outcomes[0]!.index}..${outcomes.at(-1)!.index}`;
  io.out(
    `${outcomes.length} runs (${range}), ${failing.length} with a violation${stoppedCount(outcomes)}` +
      `, ${(outcomes.length / Math.max(seconds, 1e-3)).toFixed(1)} runs/s on ${o.workers} workers`,
  );
  for (const r of failing) {
    const v = r.violation!;
    io.out(
      `  run ${r.index} (run seed ${r.runSeed}): ${v.property} at ` +
        `${formatSeconds(v.atUs)} s, trace line ${v.traceLine}: ${v.message}`,
    );
    io.out(`    class: ${classLine(r)}`);
    if (o.out !== undefined && r.counterexample !== undefined) {
      const file = join(o.out, `check-${o.seed}-${r.index}-${v.property}.yaml`);
      writeOutput(file, r.counterexample);
      written.set(r.index, file);
      io.out(`    counterexample: ${file}`);
    }
  }
  for (const r of outcomes) {
    const s = r.stopped;
    if (s !== undefined)
      io.out(
        `  run ${r.index} (run seed ${r.runSeed}): stopped at ` +
          `${formatSeconds(s.atUs)} s after ${s.events} events, not judged: ${s.message}`,
      );
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
    const order = [...byClass.keys()].sort((a, b) =>
      a === UNEXPLAINED ? 1 : b === UNEXPLAINED ? -1 : a.localeCompare(b),
    );
    for (const c of order) {
      const rs = byClass.get(c)!;
      io.out(`  ${c.padEnd(36)} ${String(rs.length).padStart(5)}  runs ${rs.map((r) => r.index).join(', ')}`);
    }
  }
  io.out(
    `reproduce: ${reproduceLine(o)}${
      o.out === undefined && failing.length > 0 ? ' --out DIR   (to shrink and write counterexamples)' : ''
    }`,
  );
  return written;
}

/** One test case per property checked; a violated one lists its runs and how to replay each. */
function checkJunit(
  o: CheckCommandOptions,
  outcomes: readonly RunOutcome[],
  files: ReadonlyMap<number, string>,
  seconds: number,
  when: Date,
): string {
  const cases: JUnitCase[] = (o.properties ?? PROPERTY_NAMES).map((p) => {
    const bad = outcomes.filter((r) => r.violation?.property === p);
    if (bad.length === 0) return { name: p, classname: 'lessor-sim.check', seconds: 0 };
    const lines = bad.map((r) => {
      const v = r.violation!;
      const file = files.get(r.index);
      const replay =
        file !== undefined ? `npx lessor-sim run ${file}` : `npx ${reproduceLine(o)} --property ${p} --out DIR`;
      return (
        `run ${r.index} (run seed ${r.runSeed}) at ${(v.atUs / 1e6).toFixed(6)}` +
        ` s, trace line ${v.traceLine}: ${v.message}\nreplay: ${replay}`
      );
    });
    return {
      name: p,
      classname: 'lessor-sim.check',
      seconds: 0,
      failure: {
        message: `${bad.length} of ${outcomes.length} runs violated ${p}: ${bad[0]!.violation!.message}`,
        type: 'property',
        text: lines.join('\n'),
      },
    };
  });
  return junitXml(
    [
      {
        name: 'lessor-sim check',
        package: 'lessor-sim.check',
        seconds,
        properties: [
          ['reproduce', reproduceLine(o)],
          ['runs', String(outcomes.length)],
        ],
        cases,
      },
    ],
    when,
  );
}

function stoppedCount(outcomes: readonly RunOutcome[]): string {
  const n = outcomes.filter((r) => r.stopped !== undefined).length;
  return n === 0 ? '' : `, ${n} stopped`;
}

const UNEXPLAINED = 'unexplained';

/** The class of a failing run, and any other fix that also removes it. */
function classLine(r: RunOutcome): string {
  const c = r.classification;
  if (c === undefined || c.finding === undefined) return `${UNEXPLAINED} (no proposed fix removes it)`;
  const [first, ...others] = c.fixes;
  return `${c.finding} (removed by fix ${first}${others.length > 0 ? `; also by ${others.join(', ')}` : ''})`;
}
