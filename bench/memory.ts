// Benchmark: what a replay keeps in memory, since it keeps its whole trace. Bytes of heap retained per
// grant-many lease (two sizes, so the fixed cost drops out) and per trace event of 10,000 leases kept alive
// (two durations), measured after a full GC; and from them the largest grant-many and the longest 10,000-lease
// keep-alive that fit the CLI's heap budget (src/cli/memory-budget.ts). Minutes long: BENCH=memory only.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HEAP_BUDGET_BYTES } from '../src/cli/memory-budget.js';
import { parseScenario } from '../src/scenario/parse.js';
import { runScenario, type RunResult } from '../src/scenario/replay/runner.js';
import { report } from './report.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const KA_LEASES = 10_000;

function grantMany(n: number): string {
  return `name: g\nduration: 10s\nsteps:\n  - at: 0s\n    grant-many: { prefix: P, count: ${n}, ttl: 3600 }\n`;
}

function keepAlive(seconds: number): string {
  const lines = ['name: k', `duration: ${seconds}s`, 'steps:', '  - at: 0s'];
  lines.push(`    grant-many: { prefix: P, count: ${KA_LEASES}, ttl: 10 }`);
  for (let i = 1; i <= KA_LEASES; i++)
    lines.push(`  - { at: 1s, keepalive: { lease: P${i}, client: c${(i % 100) + 1} } }`);
  return `${lines.join('\n')}\n`;
}

/** Heap retained by the run's result (kept alive until measured), and its trace events. */
function retained(text: string): { bytes: number; events: number } {
  const p = parseScenario(text, 'memory.yaml');
  if (!p.ok) throw new Error('the benchmark scenario does not parse');
  gc();
  const before = process.memoryUsage().heapUsed;
  let r: RunResult | undefined = runScenario(p.scenario);
  gc();
  const bytes = process.memoryUsage().heapUsed - before;
  const events = r.trace.events.length;
  r = undefined;
  return { bytes, events };
}

export function memoryBench(): void {
  const [g1, g2] = [20_000, 80_000].map((n) => retained(grantMany(n)));
  const perLease = (g2!.bytes - g1!.bytes) / 60_000;
  const perGrantEvent = (g2!.bytes - g1!.bytes) / (g2!.events - g1!.events);
  const [k1, k2] = [30, 150].map((s) => retained(keepAlive(s)));
  const perEvent = (k2!.bytes - k1!.bytes) / (k2!.events - k1!.events);
  const perVirtualS = (k2!.bytes - k1!.bytes) / 120;
  report('memory', {
    'bytes/grant-many lease': Math.round(perLease),
    'bytes/grant event': Math.round(perGrantEvent),
    'bytes/keep-alive event': Math.round(perEvent),
    'MB/virtual s (10,000 leases kept alive)': (perVirtualS / 2 ** 20).toFixed(2),
    'heap budget GiB': (HEAP_BUDGET_BYTES / 2 ** 30).toFixed(1),
    'grant-many leases in the heap budget (retained only; peak RSS under run is ~4x)': Math.floor(
      (HEAP_BUDGET_BYTES - k1!.bytes) / perLease,
    ),
    'virtual s of 10,000 leases kept alive in the heap budget': Math.floor(
      (HEAP_BUDGET_BYTES - k1!.bytes) / perVirtualS,
    ),
  });
}
