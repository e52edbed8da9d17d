/**
 * The picture's record of what the trace leaves out: every message put on the wire (who to whom, when
 * sent, when it arrives, what it is), every lessor run-loop pass and each non-leader's raft election
 * clock (ticks elapsed against the randomized timeout it drew). The Session hands it to the replay
 * as its ClusterObserver; it only reads, so the trace and its hash are the same without it.
 */
import type { Micros } from '../clock/time.js';
import type { Packet } from '../cluster/network/network.js';
import type { ClusterObserver } from '../cluster/observer.js';

export interface WireMessage {
  readonly from: string;
  readonly to: string;
  readonly sentUs: Micros;
  /** Undefined when a partition (or loss) dropped it as it was sent. */
  readonly arriveUs: Micros | undefined;
  /** The raft message type (MsgApp, MsgHeartbeat, ...) or keepalive, keepalive-answer, renew-forward, ... */
  readonly kind: string;
  readonly lease: bigint | undefined;
  /** A raft append's entries (LeaseGrant, LeaseRevoke, LeaseCheckpoint, Put, empty), a request's operation. */
  readonly carries: readonly string[] | undefined;
}

/** Past this many messages a run stops recording them (the picture then says so); a long storm can be larger. */
export const WIRE_LOG_LIMIT = 400_000;

/** A non-leader's raft election clock as it stood at `t`, after a tick or a reset. */
export interface ElectionClock {
  readonly t: Micros;
  readonly elapsedTicks: number;
  readonly timeoutTicks: number;
}

export class WireLog implements ClusterObserver {
  /** In the order sent, so by `sentUs`. */
  readonly messages: WireMessage[] = [];
  /** The longest time any message took to arrive: bounds how far back a look for in-flight ones goes. */
  maxFlightUs = 0;
  truncated = false;
  /** Every endpoint that sent or received a message, members and clients alike. */
  readonly endpoints = new Set<string>();
  private readonly passes = new Map<string, Micros[]>();
  private readonly clocks = new Map<string, ElectionClock[]>();
  private readonly arrivals = new Map<string, Micros[]>();

  sent(p: Packet, sentUs: Micros, arriveUs: Micros | undefined): void {
    if (this.messages.length >= WIRE_LOG_LIMIT) {
      this.truncated = true;
      return;
    }
    const l = p.label();
    const m: WireMessage = {
      from: p.from,
      to: p.to,
      sentUs,
      arriveUs,
      kind: l.kind,
      lease: l.lease,
      carries: l.carries,
    };
    this.messages.push(m);
    this.endpoints.add(m.from);
    this.endpoints.add(m.to);
    if (arriveUs === undefined) return;
    this.maxFlightUs = Math.max(this.maxFlightUs, arriveUs - sentUs);
    push(this.arrivals, m.to, arriveUs);
  }

  runLoopPass(member: string, t: Micros, primary: boolean): void {
    // Only a primary's pass can revoke or checkpoint; the others' are drawn as nothing.
    if (primary) push(this.passes, member, t);
  }

  electionClock(member: string, t: Micros, elapsedTicks: number, timeoutTicks: number): void {
    const c = this.clocks.get(member);
    const v = { t, elapsedTicks, timeoutTicks };
    // Several changes at one instant (a tick that campaigns, then the candidate's reset): the last one holds.
    if (c === undefined) this.clocks.set(member, [v]);
    else if (c[c.length - 1]!.t === t) c[c.length - 1] = v;
    else c.push(v);
  }

  /** Messages on the wire at `t`, and those that arrived at most `lingerUs` before it (oldest first). */
  around(t: Micros, lingerUs: Micros): WireMessage[] {
    const ms = this.messages;
    const out: WireMessage[] = [];
    for (let i = upperBound(ms, t) - 1; i >= 0; i--) {
      const m = ms[i]!;
      if (m.sentUs < t - lingerUs - this.maxFlightUs) break;
      if ((m.arriveUs ?? m.sentUs) + lingerUs >= t) out.push(m);
    }
    return out.reverse();
  }

  /** The last run-loop pass of `member`'s primary lessor at or before `t`. */
  lastPass(member: string, t: Micros): Micros | undefined {
    return lastAtOrBefore(this.passes.get(member), t);
  }

  /** `member`'s election clock as it last stood at or before `t` (clocks run on one process: in time order). */
  electionClockAt(member: string, t: Micros): ElectionClock | undefined {
    const c = this.clocks.get(member);
    if (c === undefined) return undefined;
    let lo = 0;
    let hi = c.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (c[mid]!.t <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? undefined : c[lo - 1];
  }

  /** How many messages reached `member` in (from, to]: what waits for a paused member. */
  arrivedBetween(member: string, from: Micros, to: Micros): number {
    const a = this.arrivals.get(member);
    return a === undefined ? 0 : countUpTo(a, to) - countUpTo(a, from);
  }
}

function push(m: Map<string, Micros[]>, k: string, t: Micros): void {
  const a = m.get(k);
  if (a === undefined) m.set(k, [t]);
  else if (t >= a[a.length - 1]!) a.push(t);
  else {
    // Arrivals on different links can land out of send order by a jitter; keep the list sorted.
    a.splice(countUpTo(a, t), 0, t);
  }
}

/** How many of the ascending `a` are <= t. */
function countUpTo(a: readonly Micros[], t: Micros): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lastAtOrBefore(a: readonly Micros[] | undefined, t: Micros): Micros | undefined {
  if (a === undefined) return undefined;
  const n = countUpTo(a, t);
  return n === 0 ? undefined : a[n - 1];
}

/** How many messages were sent at or before t. */
function upperBound(ms: readonly WireMessage[], t: Micros): number {
  let lo = 0;
  let hi = ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms[mid]!.sentUs <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
