/**
 * The summary of a campaign on stdout, from its outcomes alone: a single-process campaign and `check merge`
 * of its shards print the same lines. How fast it ran goes to stderr, so stdout depends only on the
 * campaign. Also the exit code rules, shared by both.
 */
import { formatSeconds } from '../../clock/time.js';
import type { ReportedRun } from './check-report.js';
import { STOPPED_EXIT_CODE } from '../limits.js';
import { EXIT } from '../exit-codes.js';
import { compareCodePoints } from '../../trace/code-point-order.js';

/** What a summary is made of: how many runs ran, from which to which index, and the ones to list. */
export interface CampaignResult {
  readonly total: number;
  readonly first: number | undefined;
  readonly last: number | undefined;
  /** Runs that violated a property or were stopped, by index. */
  readonly notable: readonly ReportedRun[];
  /** The signal that ended the campaign early: the runs above are all that ran. */
  readonly interrupted?: string;
}

export interface SummaryContext {
  /** The command line that reproduces the campaign. */
  readonly reproduce: string;
  /** Whether failing runs were shrunk into counterexamples (check --out). */
  readonly shrink: boolean;
  /** Each written counterexample's path, by run index. */
  readonly files: ReadonlyMap<number, string>;
}

const UNEXPLAINED = 'unexplained';

const failingOf = (r: CampaignResult): ReportedRun[] => r.notable.filter((x) => x.violation !== undefined);
const stoppedOf = (r: CampaignResult): ReportedRun[] => r.notable.filter((x) => x.stopped !== undefined);

export function summaryLines(r: CampaignResult, c: SummaryContext): string[] {
  const out: string[] = [];
  const failing = failingOf(r);
  const stopped = stoppedOf(r);
  const range = r.first === undefined ? 'none' : `indices ${r.first}..${r.last}`;
  out.push(
    `${r.total} runs (${range}), ${failing.length} with a violation` +
      `${stopped.length === 0 ? '' : `, ${stopped.length} stopped`}`,
  );
  if (r.interrupted !== undefined) out.push(`partial: interrupted by ${r.interrupted}; only the runs counted here ran`);
  for (const x of failing) {
    const v = x.violation!;
    out.push(
      `  run ${x.index} (run seed ${x.runSeed}): ${v.property} at ` +
        `${formatSeconds(v.atUs)} s, trace line ${v.traceLine}: ${v.message}`,
    );
    out.push(`    class: ${classLine(x)}`);
    const file = c.files.get(x.index);
    if (file !== undefined) out.push(`    counterexample: ${file}`);
  }
  for (const x of stopped) {
    const s = x.stopped!;
    out.push(
      `  run ${x.index} (run seed ${x.runSeed}): stopped at ` +
        `${formatSeconds(s.atUs)} s after ${s.events} events, not judged: ${s.message}`,
    );
  }
  const byProperty = new Map<string, number>();
  for (const x of failing) byProperty.set(x.violation!.property, (byProperty.get(x.violation!.property) ?? 0) + 1);
  if (byProperty.size > 0)
    out.push(`violations by property: ${[...byProperty].map(([p, n]) => `${p} ${n}`).join(', ')}`);
  const byClass = new Map<string, ReportedRun[]>();
  for (const x of failing) {
    const k = x.classification?.finding ?? UNEXPLAINED;
    byClass.set(k, [...(byClass.get(k) ?? []), x]);
  }
  if (byClass.size > 0) {
    out.push('violations by finding class (docs/findings/CLASS.md):');
    const order = [...byClass.keys()].sort((a, b) =>
      a === UNEXPLAINED ? 1 : b === UNEXPLAINED ? -1 : compareCodePoints(a, b),
    );
    for (const k of order) {
      const rs = byClass.get(k)!;
      out.push(`  ${k.padEnd(36)} ${String(rs.length).padStart(5)}  runs ${rs.map((x) => x.index).join(', ')}`);
    }
  }
  out.push(
    `reproduce: ${c.reproduce}${
      !c.shrink && failing.length > 0 ? ' --out DIR   (to shrink and write counterexamples)' : ''
    }`,
  );
  return out;
}

/** 1 when a run violated a property (unless --allow-known and every one has a class), else 3 when one was stopped. */
export function campaignExitCode(r: CampaignResult, allowKnown: boolean): number {
  const failing = failingOf(r);
  const unexplained = failing.filter((x) => x.classification?.finding === undefined).length;
  if (failing.length > 0 && !(allowKnown && unexplained === 0)) return EXIT.failed;
  return stoppedOf(r).length > 0 ? STOPPED_EXIT_CODE : EXIT.ok;
}

/** The class of a failing run, and any other fix that also removes it. */
function classLine(x: ReportedRun): string {
  const c = x.classification;
  if (c === undefined || c.finding === undefined) return `${UNEXPLAINED} (no proposed fix removes it)`;
  const [first, ...others] = c.fixes;
  return `${c.finding} (removed by fix ${first}${others.length > 0 ? `; also by ${others.join(', ')}` : ''})`;
}
