/**
 * A pool of worker threads that run campaign runs by index. Each worker asks for the next index as soon
 * as it is free, so the machine's cores stay busy; outcomes come back in any order.
 */
import { Worker } from 'node:worker_threads';
import type { CampaignSpec, RunOutcome } from '../../properties/index.js';
import type { FromWorker, ToWorker, WorkerData } from './worker-messages.js';

// Built, the worker is check-worker.js beside this module (the bundle names its entry so). Run from the
// TypeScript sources (tests, tsx), the worker loads them through tsx as the main thread does.
const FROM_SOURCE = import.meta.url.endsWith('.ts');

function startWorker(workerData: WorkerData): Worker {
  if (!FROM_SOURCE) return new Worker(new URL('./check-worker.js', import.meta.url), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new URL('./check-worker.ts', import.meta.url).href;
  const load = `import(${JSON.stringify(worker)})`;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return ${load}; });`;
  return new Worker(boot, { eval: true, workerData });
}

export interface PoolRun {
  /** Resolves when every index has run, or `shouldStop` said to stop handing out more. */
  readonly done: Promise<void>;
  /** Ends every worker now: runs in flight are dropped, those already reported are kept. */
  interrupt(): void;
}

/**
 * Runs `indices` on `workers` threads, calling `onOutcome` for each finished run; stops handing out
 * indices once `shouldStop()` is true (runs in flight finish).
 */
export function runPool(
  spec: CampaignSpec,
  workers: number,
  indices: Iterator<number>,
  onOutcome: (o: RunOutcome) => void,
  shouldStop: () => boolean,
  timeoutMs?: number,
): PoolRun {
  const started: Worker[] = [];
  let interrupted = false;
  const done = new Promise<void>((resolve, reject) => {
    let live = 0;
    const next = (w: Worker): void => {
      const n = shouldStop() ? undefined : indices.next();
      if (n === undefined || n.done === true) {
        w.postMessage({ type: 'stop' } satisfies ToWorker);
        return;
      }
      w.postMessage({ type: 'run', index: n.value } satisfies ToWorker);
    };
    for (let k = 0; k < workers; k++) {
      const w = startWorker({ spec, timeoutMs });
      live++;
      started.push(w);
      w.on('message', (m: FromWorker) => {
        if (interrupted) return;
        if (m.type === 'done') onOutcome(m.outcome);
        next(w);
      });
      w.on('error', reject);
      w.on('exit', () => {
        if (--live === 0) resolve();
      });
    }
  });
  const interrupt = (): void => {
    interrupted = true;
    for (const w of started) void w.terminate();
  };
  return { done, interrupt };
}
