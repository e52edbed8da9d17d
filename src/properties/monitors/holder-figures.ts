/** Per-holder figures of a run: how long each acted on a lost lease and what its stale writes did. */
import type { Micros } from '../../clock/time.js';
import { holderLives, overlapUs } from './holder-lives.js';
import type { RunView } from './run-view.js';

export interface HolderFigures {
  readonly holder: string;
  readonly acquisitions: number;
  /** Time believing it held the lock after its lease was revoked, summed over acquisitions. */
  readonly actingAfterRevokeUs: Micros;
  /** The longest single stretch of that. */
  readonly maxActingAfterRevokeUs: Micros;
  /** Time it believed it held the lock while another holder did too. */
  readonly overlapUs: Micros;
  readonly writesAccepted: number;
  readonly writesRejected: number;
  /** Writes offered with the token of a revoked lease; every one would be accepted without fencing. */
  readonly staleOffered: number;
  readonly staleRejected: number;
  readonly staleAccepted: number;
}

export interface HolderReport {
  readonly holders: readonly HolderFigures[];
  /** Time two or more holders believed they held the lock at once. */
  readonly overlapUs: Micros;
}

export function holderReport(view: RunView): HolderReport {
  const lives = holderLives(view);
  const names = [...new Set(lives.map((l) => l.holder))];
  let overlapTotal = 0;
  for (const [i, a] of lives.entries())
    for (const b of lives.slice(i + 1)) if (a.holder !== b.holder) overlapTotal += overlapUs(a, b, view.endUs);
  const holders = names.map((holder): HolderFigures => {
    const mine = lives.filter((l) => l.holder === holder);
    const after = mine.map((l) =>
      l.revokedAt === undefined ? 0 : Math.max(0, Math.min(l.stoppedAt, view.endUs) - l.revokedAt),
    );
    const writes = mine.flatMap((l) => l.writes);
    const stale = writes.filter((w) => w.stale);
    let overlap = 0;
    for (const a of mine) for (const b of lives) if (b.holder !== holder) overlap += overlapUs(a, b, view.endUs);
    return {
      holder,
      acquisitions: mine.length,
      actingAfterRevokeUs: after.reduce((x, y) => x + y, 0),
      maxActingAfterRevokeUs: Math.max(0, ...after),
      overlapUs: overlap,
      writesAccepted: writes.filter((w) => w.accepted).length,
      writesRejected: writes.filter((w) => !w.accepted).length,
      staleOffered: stale.length,
      staleRejected: stale.filter((w) => !w.accepted).length,
      staleAccepted: stale.filter((w) => w.accepted).length,
    };
  });
  return { holders, overlapUs: overlapTotal };
}
