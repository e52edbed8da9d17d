/**
 * K19 rate limits. Revoke rate: a lessor offers at most rate/2 expired leases per run-loop tick, so at
 * most `rate` in any second (B1, etcd-io/etcd#8097). Spreading: when a promotion refreshes at least
 * `rate` leases, no one-second window holds more than SPREAD_WINDOW_FACTOR × (3·rate/4) of their new
 * deadlines (B1, etcd-io/etcd#8149). Etcd's spreading works on anchored windows, so a sliding window can
 * catch the tail of one anchored window and the head of the next: hence the factor.
 */
import { MICROS_PER_SECOND, formatSeconds, type Micros } from '../../clock/time.js';
import { expectAt } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { ExpectCandidate, Violation } from './violation.js';
import { expiryOf } from '../../trace/trace.js';

export const SPREAD_WINDOW_FACTOR = 2;

export const rateLimits: Monitor = {
  name: 'rate-limits',
  check(view) {
    return earliest([revokeRate(view), spreading(view)]);
  },
};

function revokeRate(view: RunView): Violation | undefined {
  const rate = view.timings.revokeRate;
  const perTick = Math.trunc(rate / 2);
  const byMember = new Map<string, number[]>();
  for (const i of view.ofKind('lease-expired')) {
    const m = view.at(i).member;
    const list = byMember.get(m) ?? [];
    byMember.set(m, list);
    list.push(i);
  }
  const found: Violation[] = [];
  for (const [member, offers] of byMember) {
    let lo = 0;
    let tick = 0;
    for (let hi = 0; hi < offers.length; hi++) {
      const t = view.at(offers[hi]!).t;
      tick = hi > 0 && view.at(offers[hi - 1]!).t === t ? tick + 1 : 1;
      while (view.at(offers[lo]!).t <= t - MICROS_PER_SECOND) lo++;
      const inSecond = hi - lo + 1;
      if (tick <= Math.max(perTick, 1) && inSecond <= rate) continue;
      const what =
        tick > perTick
          ? `${tick} expired leases in one tick (at most ${perTick})`
          : `${inSecond} expired leases within a second (at most ${rate})`;
      found.push(
        view.violation('rate-limits', offers[hi]!, `${member} offered ${what}`, survivorsExpect(view, member, t)),
      );
      break;
    }
  }
  return earliest(found);
}

/**
 * With the rate limit, a tick revokes at most rate/2 leases, so just after it the leader still lists
 * the others; the expect names the count a rate-limited tick would leave.
 */
function survivorsExpect(view: RunView, member: string, t: Micros): ExpectCandidate[] {
  const s = view.cluster?.server(member);
  if (s === undefined) return [];
  let live = 0;
  for (const e of view.events) {
    if (e.t > t) break;
    if (e.member !== member) continue;
    if (e.kind === 'lease-grant') live++;
    else if (e.kind === 'lease-revoke') live--;
  }
  const offered = view.ofKind('lease-expired').filter((i) => view.at(i).t === t && view.at(i).member === member).length;
  const left = live - Math.min(offered, Math.trunc(view.timings.revokeRate / 2));
  const at = t + view.timings.commitSlackUs;
  return at < t + view.timings.loopUs ? [expectAt(at, { form: 'leases-count', count: left })] : [];
}

function spreading(view: RunView): Violation | undefined {
  const rate = view.timings.revokeRate;
  const cap = SPREAD_WINDOW_FACTOR * Math.trunc((3 * rate) / 4);
  for (const p of view.ofKind('lessor-promote')) {
    const promote = view.eventOf(p, 'lessor-promote');
    if (promote.fields.leases < rate) continue;
    const deadlines: { t: Micros; i: number }[] = [];
    for (let i = p + 1; i < view.events.length && view.at(i).t === promote.t; i++) {
      const e = view.at(i);
      const x = e.kind === 'lease-promoted' && e.member === promote.member ? expiryOf(e) : undefined;
      if (x !== undefined) deadlines.push({ t: x, i });
    }
    deadlines.sort((a, b) => a.t - b.t);
    let lo = 0;
    for (let hi = 0; hi < deadlines.length; hi++) {
      while (deadlines[lo]!.t <= deadlines[hi]!.t - MICROS_PER_SECOND) lo++;
      if (hi - lo + 1 <= cap) continue;
      return view.violation(
        'rate-limits',
        deadlines[hi]!.i,
        `${promote.member}'s promotion at ${formatSeconds(promote.t)} left ${hi - lo + 1} of ` +
          `${deadlines.length} leases due within one second of ${formatSeconds(deadlines[lo]!.t)} (at most ${cap})`,
        [],
      );
    }
  }
  return undefined;
}
