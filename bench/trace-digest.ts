// Benchmark: hashing trace lines with node:crypto (what Node uses) against the pure-TypeScript SHA-256
// (what the playground's bundle uses), on 200,000 lines shaped like a keep-alive trace.
import { createHash } from 'node:crypto';
import { Sha256 } from '../src/trace/sha256.js';
import { report, type BenchResult } from './report.js';

const LINES = 200_000;

export function traceDigestBench(): BenchResult[] {
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++)
    lines.push(`${(i / 1000).toFixed(6)} n1 lease-renew 694d7a1b${i.toString(16)} ttl=9 expiry=12.505000`);
  const time = (fn: () => string): { ms: number; hex: string } => {
    let best = Infinity;
    let hex = '';
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      hex = fn();
      best = Math.min(best, performance.now() - t0);
    }
    return { ms: best, hex };
  };
  const native = time(() => {
    const h = createHash('sha256');
    for (const l of lines) h.update(l).update('\n');
    return h.digest('hex');
  });
  const pure = time(() => {
    const h = new Sha256();
    for (const l of lines) h.update(l).update('\n');
    return h.hex();
  });
  return [
    report('trace digest', {
      'node:crypto (ms)': native.ms.toFixed(0),
      'pure TS SHA-256 (ms)': pure.ms.toFixed(0),
      'same hash': String(native.hex === pure.hex),
      lines: LINES,
    }),
  ];
}
