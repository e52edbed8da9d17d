// Benchmark: `lessor-sim check --runs 2000` wall time with the worker count `check` picks by default (one
// per two cores, none with fewer than 1,500 runs) against the 2 workers it used to start on a 2-core
// machine (every core), in alternated pairs (AB BA AB ...) so that a drift in the machine's load falls on
// both alike; the built bundle, a fixed campaign seed. Prints each side's median wall time, the median of
// the pairs' ratios with its range, and the load average before and after: on a shared machine the figures
// mean little without it. Issue 29's target: the default at least 1.5x faster than 2 workers.
// Minutes long, so not part of `npm run bench`: run it alone, `npx tsx bench/check-workers.ts [PAIRS] [RUNS]`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
// From the source tree, or from the compiled mirror (.bench-dist/bench).
const ROOT = [resolve(HERE, '..'), resolve(HERE, '../..')].find((d) => existsSync(join(d, 'scripts/build.mjs')))!;
const TARGET = 1.5;

function wallSeconds(args: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/bin/lessor-sim.js'), ...args], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  // 0, or 1 when the campaign found violations: both ran every run.
  if (r.status !== 0 && r.status !== 1) throw new Error(`check-workers bench: check exited ${r.status}`);
  return (performance.now() - t0) / 1000;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function checkWorkersBench(pairs = 5, runs = 2000): void {
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.mjs'), '--cli'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const campaign = ['check', '--runs', String(runs), '--seed', '1'];
  const loadBefore = loadavg()[0]!;
  const two: number[] = [];
  const byDefault: number[] = [];
  for (let k = 0; k < pairs; k++) {
    const order = k % 2 === 0 ? ['two', 'default'] : ['default', 'two'];
    for (const side of order)
      if (side === 'two') two.push(wallSeconds([...campaign, '--workers', '2']));
      else byDefault.push(wallSeconds(campaign));
  }
  const speedups = two.map((t, k) => t / byDefault[k]!);
  const speedup = median(speedups);
  const range = `${Math.min(...speedups).toFixed(2)}–${Math.max(...speedups).toFixed(2)}`;
  report(`check --runs ${runs} wall`, {
    '2 workers s': median(two).toFixed(2),
    'default workers s': median(byDefault).toFixed(2),
    'speed-up (pairs)': `${speedup.toFixed(2)} (${range})`,
    [`target ≥ ${TARGET}`]: speedup >= TARGET ? 'met' : 'MISSED',
    cores: availableParallelism(),
    'load 1 min before/after': `${loadBefore.toFixed(1)}/${loadavg()[0]!.toFixed(1)}`,
    pairs,
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [pairs, runs] = process.argv.slice(2).map(Number);
  checkWorkersBench(pairs ?? 5, runs ?? 2000);
}
