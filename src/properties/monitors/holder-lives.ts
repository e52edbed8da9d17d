/**
 * Each holder's acquisitions read back from the trace: what it believed (acquired → stop) beside what
 * the cluster did (its lease revoked), and the fenced writes it offered meanwhile. Shared by the holder
 * monitors and the per-holder report.
 */
import type { Micros } from '../../clock/time.js';
import type { RunView } from './run-view.js';

export interface HolderWrite {
  readonly index: number;
  readonly t: Micros;
  readonly accepted: boolean;
  /** Offered at or after its lease was really revoked. */
  readonly stale: boolean;
}

export interface HolderLife {
  readonly holder: string;
  readonly lease: bigint;
  readonly token: number;
  readonly acquiredAt: Micros;
  readonly acquiredIndex: number;
  /** When it stopped acting (a deadline holder's own stop instant, even if noticed later); Infinity if never. */
  readonly stoppedAt: Micros;
  readonly stopIndex: number | undefined;
  readonly stopReason: string | undefined;
  readonly revokedAt: Micros | undefined;
  readonly revokedIndex: number | undefined;
  readonly writes: readonly HolderWrite[];
}

export function holderLives(view: RunView): HolderLife[] {
  const lives: HolderLife[] = [];
  for (const i of view.ofKind('holder-acquired')) {
    const e = view.eventOf(i, 'holder-acquired');
    const lease = e.lease!;
    const later = view.ofLease(lease).filter((k) => k > i && view.at(k).member === e.member);
    const stop = later.find((k) => view.at(k).kind === 'holder-stop');
    const revoked = view.ofLease(lease).find((k) => view.at(k).kind === 'holder-revoked');
    // Never stopped (paused at the end of the run): a deadline holder's last declared deadline still binds it.
    const declared = later.filter((k) => view.at(k).kind === 'holder-deadline').at(-1);
    const stopped = stop === undefined ? undefined : view.eventOf(stop, 'holder-stop');
    const stoppedAt =
      stopped !== undefined
        ? stopped.t - (stopped.fields.lateUs ?? 0)
        : declared !== undefined
          ? view.eventOf(declared, 'holder-deadline').fields.untilUs
          : Infinity;
    const revokedAt = revoked === undefined ? undefined : view.at(revoked).t;
    const token = e.fields.token;
    const writes: HolderWrite[] = [];
    for (const k of view.ofKind('client-fenced-write')) {
      const w = view.eventOf(k, 'client-fenced-write');
      if (k < i || w.member !== e.member || w.fields.token !== token) continue;
      if (stop !== undefined && k > stop) break;
      writes.push({
        index: k,
        t: w.t,
        accepted: w.fields.accepted,
        stale: revokedAt !== undefined && w.t >= revokedAt,
      });
    }
    lives.push({
      holder: e.member,
      lease,
      token,
      acquiredAt: e.t,
      acquiredIndex: i,
      stoppedAt: Math.max(e.t, stoppedAt),
      stopIndex: stop,
      stopReason: stopped?.fields.reason,
      revokedAt,
      revokedIndex: revoked,
      writes,
    });
  }
  return lives;
}

/** How long two lives' belief intervals overlap. */
export function overlapUs(a: HolderLife, b: HolderLife, endUs: Micros): Micros {
  return Math.max(0, Math.min(a.stoppedAt, b.stoppedAt, endUs) - Math.max(a.acquiredAt, b.acquiredAt));
}
