/**
 * `lessor-sim/vitest`: lease properties and scenario assertions the way vitest and fast-check users write
 * tests. Importing it adds the matchers to vitest's `expect`. vitest and fast-check are peer dependencies:
 * `npm install --save-dev vitest fast-check`. See docs/vitest.md.
 */
import { expect } from 'vitest';
import type { TraceKind } from '../trace/trace.js';
import { lessorMatchers, type EventWhere } from './matchers.js';

export {
  DEFAULT_NUM_RUNS,
  DEFAULT_SEED,
  VITEST_DEFAULT_TIMEOUT_MS,
  checkLeaseRuns,
  leaseTest,
  type LeaseTestOptions,
} from './lease-test.js';
export { lessorMatchers, type EventWhere } from './matchers.js';
export { replayCommands } from './replay-commands.js';

expect.extend(lessorMatchers);

interface LessorMatchers<R = unknown> {
  /** Every assertion of the replay held, with no setup error, stop or holder error; else each failure by file:line. */
  toPassScenario(): R;
  /** The replay's trace has an event of this kind showing `where` (member, lease label or ID, t, fields). */
  toHaveEvent(kind: TraceKind, where?: EventWhere): R;
  /** No lock holder of the replay wrote with the token of a lease that was already revoked. */
  toNeverActAfterLoss(): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: an augmentation repeats vitest's own declaration, default included.
  interface Matchers<T = any> extends LessorMatchers<T> {}
}
