/** What the check pool and its workers say to each other. */
import type { CampaignSpec, RunOutcome } from '../../properties/index.js';

/** What each worker starts with: the campaign, and each run's wall-clock limit (`check --timeout`). */
export interface WorkerData {
  readonly spec: CampaignSpec;
  readonly timeoutMs: number | undefined;
}

export type ToWorker = { readonly type: 'run'; readonly index: number } | { readonly type: 'stop' };
export type FromWorker = { readonly type: 'ready' } | { readonly type: 'done'; readonly outcome: RunOutcome };
