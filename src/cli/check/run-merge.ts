/**
 * `lessor-sim check merge DIR...`: the summary, counterexamples, reports and exit code of the whole
 * campaign from its shards' reports, the same as one process running the campaign would give.
 */
import { dirname, join } from 'node:path';
import type { FixName } from '../../switches/fixes.js';
import type { BugName } from '../../switches/bugs.js';
import type { PropertyName } from '../../properties/monitors/property-names.js';
import type { CheckReporter } from '../commands/check-reporter.js';
import type { CliIO } from '../io.js';
import { writeOutput } from '../output-path.js';
import { oneLine } from '../../report/terminal-text.js';
import { reproduceLine, type CheckCommandOptions } from './check-options.js';
import { countOf, counterexampleFile, reportedRun, type ReportedRun } from './check-report.js';
import { mergeReports, type LoadedReport, type MergedCampaign } from './merge-reports.js';
import { campaignExitCode, summaryLines, type CampaignResult } from './summary.js';
import { writeCampaignReport } from './write-report.js';

export { loadReports } from './merge-reports.js';

export interface MergeOptions {
  readonly loaded: readonly LoadedReport[];
  readonly out: string | undefined;
  readonly allowKnown: boolean;
}

/** The options of the single-process campaign the shards make up, as far as its summary shows them. */
function wholeCampaign(m: MergedCampaign): CheckCommandOptions {
  const c = m.campaign;
  return {
    runs: c.runs ?? undefined,
    seed: c.seed,
    seedGiven: true,
    budgetUs: c.timeBudgetUs ?? undefined,
    properties: (c.properties ?? undefined) as readonly PropertyName[] | undefined,
    bugs: c.bugs as readonly BugName[],
    fixes: c.fixes as readonly FixName[],
    allowKnown: false,
    exitZero: false,
    out: undefined,
    shard: { index: 0, count: 1 },
    workers: m.workers,
    maxEvents: c.maxEvents ?? undefined,
    timeoutMs: c.timeoutMs ?? undefined,
  };
}

export function runMerge(o: MergeOptions, io: CliIO, reporter: CheckReporter | undefined): number {
  const m = mergeReports(o.loaded);
  const whole = wholeCampaign(m);
  const total = countOf(m.ran);
  io.err(
    `lessor-sim check merge: ${m.shards.length} shard${m.shards.length === 1 ? '' : 's'} of campaign seed ` +
      `${m.campaign.seed}, ${total} runs, ${m.seconds.toFixed(1)} s on ${m.workers} workers in all`,
  );
  // With --out, counterexamples are written as the single process writes them; else they stay with their shard.
  const files = new Map<number, string>();
  for (const { run, from } of m.runs) {
    const cx = run.counterexample;
    if (cx === undefined) continue;
    // Under --out, named from (seed, index, property) as one campaign names them: unique, whatever a report says.
    const file =
      o.out !== undefined
        ? counterexampleFile(o.out, m.campaign.seed, run.index, run.violation?.property ?? 'stopped')
        : join(dirname(from.file), cx.file);
    if (o.out !== undefined) writeOutput(file, cx.yaml);
    files.set(run.index, file);
  }
  const result: CampaignResult = {
    total,
    first: m.ran[0]?.[0],
    last: m.ran.at(-1)?.[1],
    notable: m.runs.map(({ run: { counterexample: _, ...rest } }) => rest),
  };
  const context = { reproduce: reproduceLine(whole), shrink: m.campaign.shrink, files };
  for (const line of summaryLines(result, context)) io.out(oneLine(line));
  writeCampaignReport(reporter, whole.properties, result, context, m.seconds, new Date(), (file) => ({
    campaign: m.campaign,
    shard: whole.shard,
    ran: m.ran,
    runs: m.runs.map(({ run }) => rebased(run, files.get(run.index), file)),
    workers: m.workers,
    seconds: m.seconds,
  }));
  return campaignExitCode(result, o.allowKnown);
}

/** A shard's run in the merged report: its counterexample's file as the merged report sees it. */
function rebased(run: ReportedRun, file: string | undefined, reportFile: string): ReportedRun {
  const { counterexample, ...rest } = run;
  if (counterexample === undefined || file === undefined) return rest;
  return reportedRun({ ...rest, counterexample: counterexample.yaml }, file, reportFile);
}
