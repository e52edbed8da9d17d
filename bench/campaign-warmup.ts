// Benchmark: how much of a short campaign's cost is the JIT warming up. The same generated runs (the
// campaign benchmark's, WARMUP_RUNS of them, default 300) are drafted, replayed and judged WARMUP_PASSES
// times (default 4) in one process, so every pass does identical work: pass 1 against the last is the
// warm-up penalty (generation is left out; holding the runs adds a little GC work a campaign lacks).
// Each pass also splits its CPU time between the main thread and the rest of the process (V8's
// concurrent compiler and GC helpers), read from /proc (Linux; "n/a" elsewhere), since
// process.cpuUsage counts every thread.
import { readdirSync, readFileSync } from 'node:fs';
import type { GeneratedRun } from '../src/properties/index.js';
import { cpuMs, forEachFiftyStepRun, judgeRun } from './campaign.js';
import { report, type BenchResult } from './report.js';

/** CPU ms of the main thread and of every other thread of this process, or undefined without /proc. */
function threadCpuMs(): { main: number; others: number } | undefined {
  try {
    const ticksMs = 10; // USER_HZ is 100 on Linux
    let main = 0;
    let others = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      // Fields after the command name: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * ticksMs;
      if (tid === String(process.pid)) main += ms;
      else others += ms;
    }
    return { main, others };
  } catch {
    return undefined;
  }
}

export function campaignWarmupBench(
  runs = Number(process.env.WARMUP_RUNS ?? 300),
  passes = Number(process.env.WARMUP_PASSES ?? 4),
  seed = 1,
): BenchResult[] {
  const generated: GeneratedRun[] = [];
  forEachFiftyStepRun(runs, seed, (run) => {
    generated.push({ ...run, commands: [...run.commands] });
  });
  const figures: Record<string, string> = {};
  let first = 0;
  let last = 0;
  for (let pass = 1; pass <= passes; pass++) {
    const t0 = cpuMs();
    const th0 = threadCpuMs();
    for (const run of generated) judgeRun(run);
    const ms = cpuMs() - t0;
    const th1 = threadCpuMs();
    const perS = (runs * 1000) / ms;
    if (pass === 1) first = perS;
    last = perS;
    const split =
      th0 !== undefined && th1 !== undefined
        ? `, CPU ms main/other threads ${th1.main - th0.main}/${th1.others - th0.others}`
        : ', CPU split n/a';
    figures[`pass ${pass}`] = `${perS.toFixed(0)} runs/CPU s${split}`;
  }
  return [
    report('campaign warm-up', {
      runs,
      ...figures,
      'first/last pass': (first / last).toFixed(2),
    }),
  ];
}
