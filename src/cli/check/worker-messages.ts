/** What the check pool and its workers say to each other. */
import type { RunOutcome } from '../../properties/index.js';

export type ToWorker = { readonly type: 'run'; readonly index: number } | { readonly type: 'stop' };
export type FromWorker = { readonly type: 'ready' } | { readonly type: 'done'; readonly outcome: RunOutcome };
