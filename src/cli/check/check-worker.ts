/**
 * The worker-thread side of `lessor-sim check`: runs the campaign runs the pool hands it, one at a time,
 * and posts each outcome back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { campaignRun, type CampaignSpec } from '../../properties/index.js';
import type { ToWorker, FromWorker } from './worker-messages.js';

const spec = workerData as CampaignSpec;
const port = parentPort!;

port.on('message', (m: ToWorker) => {
  if (m.type === 'stop') return port.close();
  const reply: FromWorker = { type: 'done', outcome: campaignRun(spec, m.index) };
  port.postMessage(reply);
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
