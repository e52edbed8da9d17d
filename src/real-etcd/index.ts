/**
 * `lessor-sim diff FILE…`: the same scenario in the simulation and on a live etcd 3.4 cluster, side by
 * side. Exit 0 when both give every assertion the same verdict and every lease event agrees within its
 * tolerance, or differs in a way the file declares under `expected-differences` (whose reasons are
 * printed); 1 otherwise (or when real etcd could not be run); 2 when a file is invalid or asks for
 * something the real-etcd driver cannot do faithfully; 5 when the only differences left are event times
 * outside tolerance and the driver measured its host busy while etcd ran (load-probe.ts): a verdict on
 * timing that the load, not the model, may explain, never reported as agreement.
 */
import { readFileSync } from 'node:fs';
import { formatTimeMs } from '../clock/time.js';
import { BUG_NAMES } from '../switches/bugs.js';
import type { Scenario } from '../scenario/types.js';
import { EXIT } from '../cli/exit-codes.js';
import { loadScenario } from '../cli/load.js';
import { findEtcd } from './binaries.js';
import { diffFile, type FileDiff } from './diff-file.js';
import { DriverError } from './errors.js';
import { refusals } from './refusals.js';
import { renderFileDiff, toleranceLines } from './render.js';

export { diffFile, type FileDiff } from './diff-file.js';
export { findEtcd } from './binaries.js';
export { refusals } from './refusals.js';
export { DriverError } from './errors.js';

export interface RunDiffOptions {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Where to look for etcd and etcdctl; default $PATH. */
  readonly searchPath?: string;
  /** Called with each file's structured result (the bench and tests read it). */
  readonly onFile?: (d: FileDiff) => void;
}

/** Loads and checks every file before anything runs; the scenarios, or undefined after printing why. */
export function loadDrivable(files: readonly string[], err: (line: string) => void): Scenario[] | undefined {
  const scenarios: Scenario[] = [];
  let bad = false;
  for (const f of files) {
    const l = loadScenario(f, BUG_NAMES);
    if (!l.ok) {
      bad = true;
      for (const m of l.messages) err(m);
      continue;
    }
    const reasons = refusals(l.scenario, readFileSync(f, 'utf8'));
    for (const r of reasons) err(`${r} (refused by the real-etcd driver)`);
    if (reasons.length > 0) bad = true;
    else scenarios.push(l.scenario);
  }
  return bad ? undefined : scenarios;
}

export async function runDiff(
  files: string[],
  opts: { out: (line: string) => void; err: (line: string) => void } & Partial<RunDiffOptions>,
): Promise<number> {
  if (files.length === 0) {
    opts.err('lessor-sim diff: name at least one scenario file');
    return 2;
  }
  const scenarios = loadDrivable(files, opts.err);
  if (scenarios === undefined) return 2;
  let binaries: ReturnType<typeof findEtcd>;
  try {
    binaries = findEtcd(opts.searchPath);
  } catch (e) {
    if (!(e instanceof DriverError)) throw e;
    opts.err(`lessor-sim diff: ${e.message}`);
    return 1;
  }
  for (const line of toleranceLines()) opts.out(line);
  opts.out('');
  const summary: string[] = [];
  let allAgree = true;
  let timingUnderLoad = false;
  for (const s of scenarios) {
    try {
      const d = await diffFile(s, { binaries, log: (line) => opts.err(`lessor-sim diff: ${s.file}: ${line}`) });
      opts.onFile?.(d);
      for (const line of renderFileDiff(d)) opts.out(line);
      opts.out('');
      allAgree &&= d.agree || d.verdict === 'timing-under-load';
      timingUnderLoad ||= d.verdict === 'timing-under-load';
      const ratio = (d.clusterStartUs + d.realReplayUs) / Math.max(1, d.simWallUs);
      const largest = d.largest === undefined ? '-' : formatTimeMs(Math.abs(d.largest.deltaUs!));
      summary.push(
        `  ${SUMMARY[d.verdict]} ${s.name.padEnd(44)} largest ` +
          `|Δ| ${largest.padStart(8)}  etcd/simulation wall ${ratio.toFixed(0)}×`,
      );
    } catch (e) {
      // A DriverError is the whole story in one line; anything else is unexpected, so say so.
      const message =
        e instanceof DriverError
          ? e.message
          : `unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
      opts.err(`lessor-sim diff: ${s.file}: cannot run real etcd: ${message}`);
      summary.push(`  ERROR    ${s.name.padEnd(44)} ${message.split('\n')[0]}`);
      allAgree = false;
    }
  }
  if (scenarios.length > 1) {
    opts.out('summary:');
    for (const line of summary) opts.out(line);
  }
  return !allAgree ? EXIT.failed : timingUnderLoad ? EXIT.timingUnderLoad : EXIT.ok;
}

const SUMMARY: Record<FileDiff['verdict'], string> = {
  agree: 'AGREE   ',
  disagree: 'DISAGREE',
  'timing-under-load': 'TIMING* ',
};
