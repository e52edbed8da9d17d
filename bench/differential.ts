// Benchmark: how much faster the simulation replays the differential suite than real etcd 3.4 does.
// Each file runs both ways (lessor-sim diff); the ratio is total real wall time (cluster start + replay)
// over total simulated wall time. Needs etcd and etcdctl on PATH; takes as long as the suite (~3 min).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDiff, type FileDiff } from '../src/real-etcd/index.js';
import { report } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The suite's files, from the source tree or from the compiled mirror (.bench-dist/bench). */
export function differentialSuite(): string[] {
  const dir = [resolve(HERE, '../scenarios/differential'), resolve(HERE, '../../scenarios/differential')].find((d) =>
    existsSync(d),
  );
  if (dir === undefined) throw new Error('scenarios/differential not found');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));
}

/** Runs the suite both ways and returns real/simulated wall time; prints one line per file. */
export async function differentialRatio(files: string[] = differentialSuite()): Promise<number> {
  const diffs: FileDiff[] = [];
  const errors: string[] = [];
  await runDiff(files, { out: () => {}, err: (l) => errors.push(l), onFile: (d) => diffs.push(d) });
  if (diffs.length === 0) throw new Error(`differential bench: nothing ran: ${errors.join('; ')}`);
  let realUs = 0;
  let simUs = 0;
  for (const d of diffs) {
    const r = d.clusterStartUs + d.realReplayUs;
    realUs += r;
    simUs += d.simWallUs;
    report(`diff ${d.name.replace(/^diff-/, '')}`, {
      'etcd s': (r / 1e6).toFixed(2),
      'sim s': (d.simWallUs / 1e6).toFixed(3),
      ratio: `${(r / Math.max(1, d.simWallUs)).toFixed(0)}x`,
      'max |Δ| s': d.largest === undefined ? '-' : (Math.abs(d.largest.deltaUs!) / 1e6).toFixed(3),
      agree: d.agree ? 'yes' : 'NO',
    });
  }
  const ratio = realUs / Math.max(1, simUs);
  report('differential suite', {
    'etcd s': (realUs / 1e6).toFixed(1),
    'sim s': (simUs / 1e6).toFixed(2),
    'etcd/sim': `${ratio.toFixed(0)}x`,
  });
  return ratio;
}
