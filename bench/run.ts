// `npm run bench`: every benchmark, one line each, in the order of the issues that asked for them; the
// lessor storm's storm/floor ratio is the last line. BENCH=name[,name] runs a subset:
// startup, campaign, differential, cluster-storm, cluster-keepalive, idle-day, trace-digest, playground,
// lessor-storm; holder-campaign (minutes long) runs only when named.
import { campaignBench } from './campaign.js';
import { clusterKeepAlive } from './cluster-keepalive.js';
import { differentialRatio } from './differential.js';
import { holderCampaignBench } from './holder-campaign.js';
import { idleDay } from './idle-day.js';
import { lessorStorm } from './lessor-storm.js';
import { playgroundBench } from './playground.js';
import { traceDigestBench } from './trace-digest.js';
import { report } from './report.js';
import { startupBench } from './startup.js';
import { clusterStorm } from './storm.js';

const only = process.env.BENCH?.split(',');
const want = (name: string): boolean => only === undefined || only.includes(name);

if (want('startup')) startupBench();
if (want('campaign')) campaignBench();
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
if (want('cluster-keepalive')) clusterKeepAlive();
if (want('idle-day')) idleDay();
if (want('trace-digest')) traceDigestBench();
if (want('playground')) await playgroundBench();
if (want('lessor-storm')) lessorStorm();
if (only?.includes('holder-campaign')) holderCampaignBench();
