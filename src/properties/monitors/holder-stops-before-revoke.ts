/**
 * A holder stops acting (its belief that it holds the lock ends) at least `margin` before its lease is
 * revoked: the runbook's "before the TTL window expires and a competitor is granted the same lock".
 */
import { formatSeconds, type Micros } from '../../clock/time.js';
import { holderLives } from './holder-lives.js';
import type { Monitor } from './monitor.js';
import type { Violation } from './violation.js';

export function holderStopsBeforeRevokeWithin(marginUs: Micros): Monitor {
  return {
    name: 'holder-stops-before-revoke',
    check(view) {
      let first: Violation | undefined;
      for (const l of holderLives(view)) {
        if (l.revokedAt === undefined || l.revokedIndex === undefined || l.stoppedAt <= l.revokedAt - marginUs)
          continue;
        if (first !== undefined && first.atUs <= l.revokedAt) continue;
        const stopped =
          l.stoppedAt === Infinity
            ? 'had not stopped by the end of the run'
            : `stopped at ${formatSeconds(l.stoppedAt)}`;
        first = view.violation(
          'holder-stops-before-revoke',
          l.revokedIndex,
          `${l.holder}'s lease was revoked at ${formatSeconds(l.revokedAt)} but it ${stopped}${
            marginUs > 0 ? ` (margin ${formatSeconds(marginUs)} s)` : ''
          }`,
          [],
          l.revokedAt - marginUs,
        );
      }
      return first;
    },
  };
}

export const holderStopsBeforeRevoke: Monitor = holderStopsBeforeRevokeWithin(0);
