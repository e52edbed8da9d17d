/** No two holders believe they hold the same lock at the same instant. */
import { formatSeconds } from '../../clock/time.js';
import { holderLives, overlapUs } from './holder-lives.js';
import type { Monitor } from './monitor.js';
import type { Violation } from './violation.js';

export const noOverlap: Monitor = {
  name: 'no-overlap',
  check(view) {
    const lives = holderLives(view);
    let first: Violation | undefined;
    for (const b of lives) {
      for (const a of lives) {
        if (a.holder === b.holder || a.acquiredIndex >= b.acquiredIndex || overlapUs(a, b, view.endUs) <= 0) continue;
        if (first !== undefined && first.traceLine <= b.acquiredIndex + 1) continue;
        const until = a.stoppedAt === Infinity ? 'the end of the run' : formatSeconds(a.stoppedAt);
        first = view.violation(
          'no-overlap',
          b.acquiredIndex,
          `${b.holder} acquired the lock at ${formatSeconds(b.acquiredAt)}` +
            ` while ${a.holder} still believed it held it (until ${until})`,
          [],
        );
      }
    }
    return first;
  },
};
