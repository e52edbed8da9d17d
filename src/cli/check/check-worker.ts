/**
 * The worker-thread side of `lessor-sim check`: runs the campaign runs the pool hands it, one at a time,
 * and posts each outcome back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { campaignRun } from '../../properties/index.js';
import { guardFor, NO_LIMITS } from '../limits.js';
import type { ToWorker, FromWorker, WorkerData } from './worker-messages.js';

const { spec, timeoutMs } = workerData as WorkerData;
const port = parentPort!;

port.on('message', (m: ToWorker) => {
  if (m.type === 'stop') return port.close();
  // The wall clock is read here, in the CLI, never in the simulation; each run's limit starts with it.
  const poll = timeoutMs === undefined ? undefined : guardFor({ ...NO_LIMITS, timeoutMs }, Date.now).poll;
  const reply: FromWorker = { type: 'done', outcome: campaignRun(spec, m.index, poll) };
  port.postMessage(reply);
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
