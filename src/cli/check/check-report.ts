/**
 * The JSON report of a campaign or one shard of it (`check --reporter json --output FILE`): the inputs that
 * shape every run, which runs ran, and each run that violated a property or was stopped, with its
 * counterexample. Passing runs are only counted, as ranges of indices, so a report stays small at any
 * number of runs. `check merge` joins the reports of a campaign's shards.
 */
import { createHash } from 'node:crypto';
import { dirname, join, relative, resolve } from 'node:path';
import type { RunOutcome } from '../../properties/index.js';
import type { CheckCommandOptions, Shard } from './check-options.js';

export const REPORT_FORMAT = 'lessor-sim check report';
export const REPORT_FORMAT_VERSION = 2;

/** Every input that shapes a run's outcome: shards of one campaign have the same key. */
export interface CampaignKey {
  readonly version: string;
  readonly seed: number;
  readonly runs: number | null;
  readonly timeBudgetUs: number | null;
  readonly properties: readonly string[] | null;
  readonly bugs: readonly string[];
  readonly fixes: readonly string[];
  /** With --out: failing runs are shrunk, which can change their finding class. */
  readonly shrink: boolean;
  readonly maxEvents: number | null;
  readonly timeoutMs: number | null;
}

/** A run worth listing: one that violated a property or was stopped; its counterexample with its file. */
export type ReportedRun = Omit<RunOutcome, 'counterexample'> & {
  /** `file` is relative to the report's folder. */
  readonly counterexample?: { readonly file: string; readonly yaml: string };
};

export interface CheckReport {
  readonly format: typeof REPORT_FORMAT;
  readonly formatVersion: typeof REPORT_FORMAT_VERSION;
  readonly campaign: CampaignKey;
  readonly shard: Shard;
  /** The indices that ran, as inclusive [first, last] ranges in order. */
  readonly ran: readonly (readonly [number, number])[];
  /** The runs that violated a property or were stopped, by index. */
  readonly runs: readonly ReportedRun[];
  /** Set when a signal ended the campaign early: `ran` holds what ran before it, and nothing else did. */
  readonly interrupted?: string;
  /** How it ran, not what it found: merged reports add these up. */
  readonly workers: number;
  readonly seconds: number;
  /** sha256 over what it found (reportDigest): a report edited or damaged since it was written is refused. */
  readonly digest: string;
}

/**
 * The digest of a report: campaign, shard, what ran, every listed run and the interruption, in the order
 * written. It catches a dropped or repeated run and a hand-edited class; it is a checksum, not a signature.
 */
export function reportDigest(r: Omit<CheckReport, 'digest'>): string {
  const sealed = [r.campaign, r.shard, r.ran, r.runs, r.interrupted ?? null];
  return `sha256:${createHash('sha256').update(JSON.stringify(sealed)).digest('hex')}`;
}

export function campaignKey(o: CheckCommandOptions, version: string): CampaignKey {
  return {
    version,
    seed: o.seed,
    runs: o.runs ?? null,
    timeBudgetUs: o.budgetUs ?? null,
    properties: o.properties ?? null,
    bugs: o.bugs,
    fixes: o.fixes,
    shrink: o.out !== undefined,
    maxEvents: o.maxEvents ?? null,
    timeoutMs: o.timeoutMs ?? null,
  };
}

/** Where a counterexample of run `index` is written under --out DIR: unique per run of a campaign. */
export const counterexampleFile = (dir: string, seed: number, index: number, property: string): string =>
  join(dir, `check-${seed}-${index}-${property}.yaml`);

/** Sorted indices as inclusive ranges. */
export function rangesOf(sorted: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const k of sorted) {
    const last = out.at(-1);
    if (last !== undefined && last[1] === k - 1) last[1] = k;
    else out.push([k, k]);
  }
  return out;
}

export const countOf = (ran: CheckReport['ran']): number => ran.reduce((n, [a, b]) => n + b - a + 1, 0);

/** A run with something to report, its counterexample file (when written) relative to `reportFile`. */
export function reportedRun(r: RunOutcome, file: string | undefined, reportFile: string): ReportedRun {
  const { counterexample, ...rest } = r;
  if (counterexample === undefined || file === undefined) return rest;
  const rel = relative(dirname(resolve(reportFile)), resolve(file))
    .split('\\')
    .join('/');
  return { ...rest, counterexample: { file: rel, yaml: counterexample } };
}

/** The report's text: JSON, one run a line, so a diff of two reports reads run by run. */
export function reportText(r: CheckReport): string {
  const { runs, ...head } = r;
  const body = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  const lines = runs.map((x) => `    ${JSON.stringify(x)}`).join(',\n');
  return `${body},\n  "runs": [${runs.length === 0 ? '' : `\n${lines}\n  `}]\n}\n`;
}
