/**
 * `leaseTest`: a vitest test that checks lease properties over generated runs, in the manner of
 * `@fast-check/vitest`'s `test.prop`. A failure prints fast-check's seed and path, writes the shrunk run
 * as a scenario file that replays to the failure, and ends with the commands that replay it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'vitest';
import { formatSeconds } from '../clock/time.js';
import type { GeneratedRun } from '../properties/arbitraries/run-arb.js';
import { counterexampleOf, leaseProperty, type LeasePropertyOptions } from '../properties/check/lease-property.js';
import { replayCommands } from './replay-commands.js';

/** vitest's own default per-test timeout. */
export const VITEST_DEFAULT_TIMEOUT_MS = 5_000;
/** fast-check stops starting runs at this share of the test's timeout, leaving the rest to write the file. */
const SEARCH_SHARE = 0.8;
export const DEFAULT_NUM_RUNS = 20;
/** The seed when neither `seed` nor FC_SEED says one and FC_RANDOM=1 does not ask for a random one. */
export const DEFAULT_SEED = 42;

export interface LeaseTestOptions extends LeasePropertyOptions {
  /** Generated runs to check (default 20; a 3-member run with faults takes about 10–20 ms of one core). */
  readonly numRuns?: number;
  /** fast-check's seed; default FC_SEED from the environment, else 42 (FC_RANDOM=1: a random one, printed). */
  readonly seed?: number;
  /** fast-check's replay path, as a failure prints it (with its seed). */
  readonly path?: string;
  /**
   * The test's timeout in ms, passed to vitest (default vitest's 5,000). Runs stop being started at 80 % of
   * it; a test that could not finish its runs in time fails and says how to raise it.
   */
  readonly timeout?: number;
  /** Where failing runs are written as scenario files (default `counterexamples`, from the working directory). */
  readonly out?: string;
  /** Other fast-check parameters (endOnFailure, verbose …). */
  readonly fastCheck?: Omit<fc.Parameters<[GeneratedRun]>, 'numRuns' | 'seed' | 'path'>;
}

/** A test name as a file name: lower case, words joined by '-'. */
const fileNameOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80) || 'lease-test';

function seedOf(opts: LeaseTestOptions): number | undefined {
  if (opts.seed !== undefined) return opts.seed;
  const env = process.env.FC_SEED;
  if (env !== undefined && /^-?\d+$/.test(env)) return Number(env);
  return process.env.FC_RANDOM === '1' ? undefined : DEFAULT_SEED;
}

/** Checks the runs now and throws the failure's message; what `leaseTest` registers as its test body. */
export function checkLeaseRuns(name: string, opts: LeaseTestOptions = {}): void {
  const timeout = opts.timeout ?? VITEST_DEFAULT_TIMEOUT_MS;
  const numRuns = opts.numRuns ?? DEFAULT_NUM_RUNS;
  const seed = seedOf(opts);
  const out = fc.check(leaseProperty(opts), {
    ...opts.fastCheck,
    numRuns,
    ...(seed !== undefined ? { seed } : {}),
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    interruptAfterTimeLimit: Math.floor(timeout * SEARCH_SHARE),
    markInterruptAsFailure: false,
  });
  const path = out.counterexamplePath !== null ? `, path: '${out.counterexamplePath}'` : '';
  const replayWith = `{ seed: ${out.seed}${path} }`;
  if (out.failed && out.counterexample !== null) {
    const run = out.counterexample[0];
    const dir = opts.out ?? 'counterexamples';
    const file = join(dir, `${fileNameOf(name)}.yaml`);
    const cx = counterexampleOf(run, opts.properties, { name: `counterexample-${fileNameOf(name)}`, file });
    const head =
      `lease property failed after ${out.numRuns} of ${numRuns} runs, shrunk ${out.numShrinks} times ` +
      `(fast-check seed ${out.seed}; this run again: ${replayWith})`;
    if (cx === undefined)
      throw new Error(`${head}:\n${String(out.errorInstance)}\n(the shrunk run did not fail again on replay)`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, cx.yaml);
    const v = cx.violation;
    throw new Error(
      [
        `${head}:`,
        `${v.property} violated at ${formatSeconds(v.atUs)} s (trace line ${v.traceLine}): ${v.message}`,
        `counterexample written to ${file}; replay it with:`,
        ...replayCommands(cx, file).map((c) => `  ${c}`),
      ].join('\n'),
    );
  }
  if (out.failed) throw new Error(`lease property could not run (seed ${out.seed}): ${String(out.errorInstance)}`);
  if (out.interrupted) {
    // At the rate the runs went, with half again as margin, rounded up to 5 s.
    const needed = out.numRuns > 0 ? (1.5 * timeout * numRuns) / out.numRuns : 10 * timeout;
    const suggested = Math.ceil(needed / 5_000) * 5_000;
    throw new Error(
      `lease property: only ${out.numRuns} of ${numRuns} runs finished in ${Math.floor(timeout * SEARCH_SHARE)} ms ` +
        `(80 % of the ${timeout} ms test timeout; seed ${out.seed}): raise the timeout with ` +
        `leaseTest(name, { timeout: ${suggested} }) (vitest's --testTimeout does not reach it) or ask for fewer runs ` +
        '(numRuns)',
    );
  }
}

/**
 * Registers a vitest test: every generated run (clusters, workloads and faults as `runArb` draws them, or
 * `opts.runs`) satisfies the chosen properties (default all 22).
 */
export function leaseTest(name: string, opts: LeaseTestOptions = {}): void {
  test(name, () => checkLeaseRuns(name, opts), opts.timeout ?? VITEST_DEFAULT_TIMEOUT_MS);
}
