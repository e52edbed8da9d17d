/**
 * `check merge`: finds the shard reports in the folders named, makes sure they are every shard of one
 * campaign exactly once, and joins them into the result a single process would have had. A set of
 * reports that is not that is refused in one line, exit code 2, before anything is written.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { readHead } from '../read-bounded.js';
import { inShard, shardSlice } from './check-options.js';
import { countOf, type CampaignKey, type CheckReport, type ReportedRun } from './check-report.js';
import { looksLikeReport, readReport } from './read-report.js';

export interface LoadedReport {
  readonly file: string;
  readonly report: CheckReport;
}

export interface MergedCampaign {
  readonly campaign: CampaignKey;
  readonly shards: readonly LoadedReport[];
  readonly ran: readonly (readonly [number, number])[];
  /** The notable runs of every shard, by index, each with the report it came from. */
  readonly runs: readonly { readonly run: ReportedRun; readonly from: LoadedReport }[];
  readonly workers: number;
  readonly seconds: number;
}

const refuse = (message: string): never => {
  throw new CliError(`check merge: ${message}`, EXIT.usage);
};

/** Whether `p` is a folder, something else (a file, or a FIFO or device readReport refuses), or missing. */
function kindOf(p: string): 'dir' | 'file' | undefined {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/** The reports named: a file is read as one, a folder gives every report among its .json files. */
export function loadReports(paths: readonly string[]): LoadedReport[] {
  const out: LoadedReport[] = [];
  for (const p of paths) {
    const kind = kindOf(p);
    if (kind === undefined) refuse(`${p}: no such file or folder`);
    if (kind === 'file') {
      out.push({ file: p, report: readReport(p) });
      continue;
    }
    const entries = readdirSync(p).sort();
    const files = entries
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(p, f))
      .filter((f) => {
        // The format line comes first in a report: its head says, without reading a large file whole.
        const head = readHead(f, 4096);
        return head !== undefined && looksLikeReport(head);
      });
    if (files.length === 0) {
      const sub = entries.some((f) => kindOf(join(p, f)) === 'dir');
      refuse(
        `${p}: holds no check report (a .json file written by check --reporter json)` +
          `${sub ? `; to merge its subfolders, name them: ${join(p, '*')}` : ''}`,
      );
    }
    for (const f of files) out.push({ file: f, report: readReport(f) });
  }
  return out;
}

const KEY_FIELDS: readonly (keyof CampaignKey)[] = [
  'version',
  'seed',
  'runs',
  'timeBudgetUs',
  'properties',
  'bugs',
  'fixes',
  'shrink',
  'maxEvents',
  'timeoutMs',
];

/** The flag each key field comes from, for the refusal. */
const FLAG_OF: Readonly<Record<keyof CampaignKey, string>> = {
  version: 'lessor-sim version',
  seed: '--seed',
  runs: '--runs',
  timeBudgetUs: '--time-budget',
  properties: '--property',
  bugs: '--bugs',
  fixes: '--fixes',
  shrink: '--out (shrinking)',
  maxEvents: '--max-events',
  timeoutMs: '--timeout',
};

const show = (v: unknown): string => (v === null ? 'none' : Array.isArray(v) ? v.join(',') || 'none' : String(v));

/** Every shard of one campaign, once each, each having run only its own share: joined. */
export function mergeReports(loaded: readonly LoadedReport[]): MergedCampaign {
  const first = loaded[0];
  if (first === undefined) return refuse('no reports');
  const key = first.report.campaign;
  const count = first.report.shard.count;
  for (const l of loaded) {
    for (const f of KEY_FIELDS)
      if (JSON.stringify(l.report.campaign[f]) !== JSON.stringify(key[f]))
        refuse(
          `${first.file} and ${l.file} are from different campaigns: ${FLAG_OF[f]} ` +
            `${show(key[f])} and ${show(l.report.campaign[f])}`,
        );
    if (l.report.shard.count !== count)
      refuse(`${first.file} is a shard of ${count}, ${l.file} a shard of ${l.report.shard.count}`);
  }
  const byIndex = new Map<number, LoadedReport>();
  for (const l of loaded) {
    const seen = byIndex.get(l.report.shard.index);
    if (seen !== undefined) refuse(`shard ${l.report.shard.index}/${count} twice: ${seen.file} and ${l.file}`);
    byIndex.set(l.report.shard.index, l);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    refuse(
      `missing shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} ` +
        `(have ${[...byIndex.keys()].sort((a, b) => a - b).join(', ')})`,
    );
  const ordered = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, l]) => l);
  for (const l of ordered) checkShare(l, key);
  const ran = joinRanges(ordered.flatMap((l) => l.report.ran));
  const runs = ordered
    .flatMap((l) => l.report.runs.map((run) => ({ run, from: l })))
    .sort((a, b) => a.run.index - b.run.index);
  return {
    campaign: key,
    shards: ordered,
    ran,
    runs,
    workers: ordered.reduce((n, l) => n + l.report.workers, 0),
    seconds: ordered.reduce((n, l) => n + l.report.seconds, 0),
  };
}

/** A shard ran within its share (all of it, unless a time budget stopped it) and lists only runs it ran. */
function checkShare(l: LoadedReport, key: CampaignKey): void {
  const { shard, ran, runs } = l.report;
  const name = `${l.file} (shard ${shard.index}/${shard.count})`;
  const runsOf = key.runs ?? undefined;
  for (const [a, b] of ran)
    if (
      !inShard(a, runsOf, shard) ||
      !inShard(b, runsOf, shard) ||
      (runsOf === undefined && shard.count > 1 && a !== b)
    )
      refuse(`${name} lists runs ${a}..${b}, outside its share of the campaign`);
  if (key.runs !== null && key.timeBudgetUs === null) {
    const { from, to } = shardSlice(key.runs, shard);
    if (countOf(ran) !== to - from)
      refuse(
        `${name} ran ${countOf(ran)} of the ${to - from} runs of its share (${from}..${to - 1}); it did not finish` +
          `${l.report.interrupted === undefined ? '' : ` (interrupted by ${l.report.interrupted})`}`,
      );
  }
  for (const r of runs)
    if (!ran.some(([a, b]) => r.index >= a && r.index <= b))
      refuse(`${name} reports run ${r.index}, which it did not run`);
}

/** Ranges from several shards, in order, adjacent ones joined. */
function joinRanges(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last !== undefined && last[1] === a - 1) last[1] = b;
    else out.push([a, b]);
  }
  return out;
}
