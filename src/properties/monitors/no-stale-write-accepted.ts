/**
 * A fenced resource accepts no write from a holder whose lease was already revoked. Fencing rejects a
 * stale token only once a newer one has been written; a stale write that arrives first is accepted, so
 * only a holder that stops in time keeps this.
 */
import { formatSeconds } from '../../clock/time.js';
import { holderLives } from './holder-lives.js';
import type { Monitor } from './monitor.js';
import type { Violation } from './violation.js';

export const noStaleWriteAccepted: Monitor = {
  name: 'no-stale-write-accepted',
  check(view) {
    let first: Violation | undefined;
    for (const l of holderLives(view)) {
      const w = l.writes.find((x) => x.stale && x.accepted);
      if (w === undefined || (first !== undefined && first.traceLine <= w.index + 1)) continue;
      first = view.violation(
        'no-stale-write-accepted',
        w.index,
        `the resource accepted ${l.holder}'s write with token ${l.token} at ` +
          `${formatSeconds(w.t)}, after its lease was revoked at ${formatSeconds(l.revokedAt!)}`,
        [],
      );
    }
    return first;
  },
};
