/** `--reporter junit|json --output FILE`: writes the one report asked for, for `check` and `check merge`. */
import type { CheckReporter } from '../commands/check-reporter.js';
import { writeOutput } from '../output-path.js';
import { checkJunit } from './check-junit.js';
import { reportDigest, reportText, REPORT_FORMAT, REPORT_FORMAT_VERSION, type CheckReport } from './check-report.js';
import type { CampaignResult, SummaryContext } from './summary.js';

/** What a JSON report holds besides its format line; `reportFile` is where it goes (run files are relative to it). */
export type ReportBody = (reportFile: string) => Omit<CheckReport, 'format' | 'formatVersion' | 'digest'>;

export function writeCampaignReport(
  reporter: CheckReporter | undefined,
  properties: readonly string[] | undefined,
  result: CampaignResult,
  context: SummaryContext,
  seconds: number,
  startedAt: Date,
  body: ReportBody,
): void {
  if (reporter?.kind === 'junit')
    writeOutput(reporter.file, checkJunit(properties, result, context, seconds, startedAt));
  if (reporter?.kind === 'json') {
    const report = { format: REPORT_FORMAT, formatVersion: REPORT_FORMAT_VERSION, ...body(reporter.file) } as const;
    writeOutput(reporter.file, reportText({ ...report, digest: reportDigest(report) }));
  }
}
