// Benchmark: how long the command takes to start and replay the runbook (`lessor-sim run
// scenarios/seed-runbook.yaml --quiet`, the built bundle), next to `node -e ''` on the same machine.
// Median of 5 wall times each; the CLI's target is 0.4 s. Rebuilds the bundle first so it is current.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
// From the source tree, or from the compiled mirror (.bench-dist/bench).
const ROOT = [resolve(HERE, '..'), resolve(HERE, '../..')].find((d) => existsSync(join(d, 'scripts/build.mjs')))!;
const TARGET_S = 0.4;

function medianWall(args: string[], runs = 5): number {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    times.push((performance.now() - t0) / 1000);
    if (r.status !== 0) throw new Error(`startup bench: node ${args.join(' ')} exited ${r.status}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export function startupBench(): void {
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.mjs'), '--cli'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const node = medianWall(['-e', '']);
  const cli = medianWall([join(ROOT, 'dist/bin/lessor-sim.js'), 'run', 'scenarios/seed-runbook.yaml', '--quiet']);
  report('cli start-up', {
    "node -e '' s": node.toFixed(3),
    'lessor-sim run runbook --quiet s': cli.toFixed(3),
    [`target ≤ ${TARGET_S} s`]: cli <= TARGET_S ? 'met' : 'MISSED',
    'median of': 5,
  });
}
