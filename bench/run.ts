// `npm run bench`: every benchmark, one line each, mostly in the order of the issues that asked for them. A
// benchmark with a limit prints its figure, the limit measured in the same process (bare-loop.ts, the
// heap floor, campaign-limit.ts), the ratio and its target; a summary of those verdicts comes last.
// BENCH=name[,name] runs a subset: startup, campaign, differential, cluster-storm, cluster-keepalive,
// idle-day, trace-digest, playground, lessor-storm; holder-campaign (minutes long), campaign-warmup (the
// same runs replayed in passes, to measure JIT warm-up) and serve-keepalive (a minute of wall time) run only
// when named.
import { campaignBench } from './campaign.js';
import { campaignWarmupBench } from './campaign-warmup.js';
import { clusterKeepAlive } from './cluster-keepalive.js';
import { differentialRatio } from './differential.js';
import { holderCampaignBench } from './holder-campaign.js';
import { idleDay } from './idle-day.js';
import { lessorStorm } from './lessor-storm.js';
import { playgroundBench } from './playground.js';
import { traceDigestBench } from './trace-digest.js';
import { report, type BenchResult } from './report.js';
import { serveKeepAliveBench } from './serve-keepalive.js';
import { startupBench } from './startup.js';
import { clusterStorm } from './storm.js';

const only = process.env.BENCH?.split(',');
const want = (name: string): boolean => only === undefined || only.includes(name);

const results: BenchResult[] = [];
if (want('startup')) startupBench();
// The campaign is judged in a process that has run nothing before it (startup only spawns others).
if (want('campaign')) results.push(...campaignBench());
// The storm's RSS target is for the storm, and the process keeps in its RSS the memory an earlier
// benchmark grew (the cluster storms reach 3 GiB): it runs before them.
if (want('lessor-storm')) results.push(...lessorStorm());
if (want('differential')) {
  try {
    const ratio = await differentialRatio();
    report('differential suite', { 'etcd/simulation wall-time ratio': ratio.toFixed(0) });
  } catch (e) {
    // Needs a local etcd; the other benchmarks still run without one.
    report('differential suite', { skipped: e instanceof Error ? e.message : String(e) });
  }
}
if (want('cluster-storm')) clusterStorm();
if (want('cluster-keepalive')) results.push(...clusterKeepAlive());
if (want('idle-day')) idleDay();
if (want('trace-digest')) traceDigestBench();
if (want('playground')) await playgroundBench();
if (only?.includes('holder-campaign')) holderCampaignBench();
if (only?.includes('campaign-warmup')) campaignWarmupBench();
if (only?.includes('serve-keepalive')) await serveKeepAliveBench();

const judged = results.filter((r) => r.verdict !== undefined);
if (judged.length > 0) {
  const line = judged.map((r) => `${r.name} ${r.verdict!.ratio.toFixed(2)} ${r.verdict!.met ? 'met' : 'missed'}`);
  console.log(`${'targets'.padEnd(24)} ${line.join('  ')}`);
}
