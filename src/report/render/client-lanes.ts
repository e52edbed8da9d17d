import { formatTime, type Micros } from '../../clock/time.js';
import { HOLDER_KINDS, isKindIn, KEEPALIVE_KINDS } from '../../trace/trace.js';
import type { ClientLane, KeepAliveState, LockState, Mark, Span } from './model.js';
import { naturalCompare } from './natural-order.js';
import type { TraceView } from './trace-view.js';

/** What the client lanes need to know about a lease: its lane, a name for it, when it was revoked. */
export interface LeaseRef {
  readonly key: string;
  readonly title: string;
  readonly revokedUs: Micros | undefined;
  /** The trace line of the revoke (the primary's). */
  readonly revokeLine: string | undefined;
}

/** A run of one state on a row; `cut` closes it into a span. */
class Row<S extends string> {
  readonly spans: Span<S>[] = [];
  readonly marks: Mark[] = [];
  state: S | undefined;
  since: Micros = 0;
  lines: string[] = [];

  constructor(readonly what: string) {}

  cut(t: Micros, line: string | undefined, next: S | undefined, split?: (span: Span<S>) => Span<S>[]): void {
    if (this.state !== undefined && t > this.since) {
      const span: Span<S> = {
        startUs: this.since,
        endUs: t,
        state: this.state,
        summary: `${this.what} ${this.state}: ${formatTime(this.since)} → ${formatTime(t)}`,
        lines: line === undefined ? this.lines : [...this.lines, line],
      };
      this.spans.push(...(split === undefined ? [span] : split(span)));
    }
    // A span of no length is not drawn: its lines go with the next one, so no line is lost.
    const carried = this.state !== undefined && t <= this.since ? this.lines : [];
    this.state = next;
    this.since = t;
    this.lines = line === undefined ? carried : [...carried, line];
  }

  /** Closes the last span at the end of the timeline; lines of a change at that very end join it. */
  finish(endUs: Micros, split?: (span: Span<S>) => Span<S>[]): void {
    this.cut(endUs, undefined, undefined, split);
    const last = this.spans.at(-1);
    if (last !== undefined && this.lines.length > 0)
      this.spans[this.spans.length - 1] = { ...last, lines: [...last.lines, ...this.lines] };
  }
}

interface LockRow extends Row<LockState> {
  session?: LeaseRef;
}

const isClient = (view: TraceView, name: string): boolean =>
  !view.isMember(name) && name !== 'sim' && name !== 'ctl' && !name.startsWith('ctl-');

/** Client names in natural order: c2 before c10. */
export function clientNames(view: TraceView): string[] {
  const names = [...new Set(view.events.map((e) => e.member))].filter((n) => isClient(view, n));
  return names.sort(naturalCompare);
}

/** Splits a held span where the session lease behind the lock was revoked: the client still thinks it holds it. */
function splitAtRevoke(what: string, lease: LeaseRef | undefined): (s: Span<LockState>) => Span<LockState>[] {
  const revokedUs = lease?.revokedUs;
  return (s) => {
    if (s.state !== 'held' || revokedUs === undefined || revokedUs >= s.endUs) return [s];
    const gone = (from: Micros): Span<LockState> => ({
      ...s,
      startUs: from,
      state: 'held-lease-gone',
      lines: lease?.revokeLine === undefined ? s.lines : [...s.lines, lease.revokeLine],
      summary:
        `${what} held after its session lease was revoked (at ` +
        `${formatTime(revokedUs)}): ${formatTime(from)} → ${formatTime(s.endUs)}`,
    });
    if (revokedUs <= s.startUs) return [gone(s.startUs)];
    return [
      { ...s, endUs: revokedUs, summary: `${what} held: ${formatTime(s.startUs)} → ${formatTime(revokedUs)}` },
      gone(revokedUs),
    ];
  };
}

/**
 * One lane per client process: keep-alive channels (alive until closed, then lost), locks (waiting,
 * held, held after the session lease was revoked), paused stretches (a simulated client's pause, or a
 * served program's SIGSTOP until its SIGCONT or its end) and fenced writes. A holder gets a
 * lane of its own: its lock row shows when it believes it holds the lock, and where it believes so
 * after its lease was really revoked; its writes show accepted and rejected.
 */
export function extractClientLanes(
  view: TraceView,
  leaseAt: (id: bigint, t: Micros) => LeaseRef | undefined,
): ClientLane[] {
  return clientNames(view).map((name) => {
    const paused = new Row<'paused'>(`${name}`);
    const keepAlives = new Map<string, Row<KeepAliveState> & { title: string }>();
    const locks = new Map<string, LockRow>();
    const writes: Mark[] = [];
    let session: LeaseRef | undefined;
    let holding: LockRow | undefined;

    const lock = (lockName: string): LockRow => {
      let r = locks.get(lockName);
      if (r === undefined) {
        r = new Row<LockState>(`${name} lock ${lockName}`);
        locks.set(lockName, r);
      }
      return r;
    };
    const endLock = (r: LockRow, t: Micros, line: string | undefined): void =>
      r.cut(t, line, undefined, splitAtRevoke(r.what, r.session));

    view.events.forEach((e, i) => {
      if (e.member !== name) return;
      const line = view.lines[i]!;
      if (e.kind === 'client-pause' || (e.kind === 'app-signal' && e.fields.signal === 'SIGSTOP'))
        paused.cut(e.t, line, 'paused');
      else if (
        (e.kind === 'client-resume' || (e.kind === 'app-signal' && e.fields.signal === 'SIGCONT')) &&
        paused.state === 'paused'
      )
        paused.cut(e.t, line, undefined);
      else if ((e.kind === 'app-exit' || e.kind === 'app-signal') && paused.state === 'paused') {
        // A stopped program killed (SIGKILL, or the run's end) is no longer paused.
        paused.cut(e.t, line, undefined);
        return; // a plain tick too
      } else if (isKindIn(e, KEEPALIVE_KINDS) && e.lease !== undefined) {
        const ref = leaseAt(e.lease, e.t);
        if (ref === undefined) return;
        let r = keepAlives.get(ref.key);
        if (r === undefined) {
          r = Object.assign(new Row<KeepAliveState>(`${name} keep-alive ${ref.title}`), { title: ref.title });
          keepAlives.set(ref.key, r);
        }
        if (e.kind === 'client-keepalive-closed') r.cut(e.t, line, 'lost');
        else if (r.state !== 'alive') r.cut(e.t, line, 'alive');
        r.marks.push(view.mark(i));
      } else if (e.kind === 'client-session-start' && e.lease !== undefined) {
        session = leaseAt(e.lease, e.t);
        return; // a plain tick too
      } else if (e.kind === 'client-lock-waiting' || e.kind === 'client-lock-acquired') {
        const r = lock(e.fields.name);
        if (e.kind === 'client-lock-acquired' || r.state !== 'waiting') {
          if (r.state === 'held') endLock(r, e.t, line);
          r.cut(e.t, line, e.kind === 'client-lock-acquired' ? 'held' : 'waiting');
          r.session = session;
        }
        r.marks.push(view.mark(i));
      } else if (e.kind === 'client-unlock' || e.kind === 'client-lock-failed') {
        const r = lock(e.fields.name);
        endLock(r, e.t, line);
        r.marks.push(view.mark(i));
      } else if (e.kind === 'client-session-done' || e.kind === 'client-close') {
        for (const r of locks.values()) if (r.state !== undefined) endLock(r, e.t, line);
        return; // a plain tick too
      } else if (e.kind === 'holder-acquired') {
        // A holder's lane: its belief as a lock row, split where its lease was really revoked.
        holding = lock(e.fields.key);
        holding.cut(e.t, line, 'held');
        holding.session = e.lease === undefined ? undefined : leaseAt(e.lease, e.t);
        holding.marks.push(view.mark(i));
      } else if (e.kind === 'holder-stop' && holding !== undefined) {
        // A deadline holder stopped acting at its deadline, even if it says so only on waking.
        endLock(holding, Math.max(holding.since, e.t - (e.fields.lateUs ?? 0)), line);
        holding.marks.push(view.mark(i));
        holding = undefined;
      } else if (isKindIn(e, HOLDER_KINDS) && holding !== undefined) {
        holding.marks.push(view.mark(i));
      } else if (e.kind === 'client-fenced-write') {
        writes.push(view.mark(i, e.fields.accepted ? 'accepted' : 'rejected'));
      } else return;
      view.claim(i);
    });

    paused.finish(view.endUs);
    for (const r of keepAlives.values()) r.finish(view.endUs);
    for (const r of locks.values()) r.finish(view.endUs, splitAtRevoke(r.what, r.session));
    return {
      name,
      paused: paused.spans,
      keepAlives: [...keepAlives.entries()].map(([leaseKey, r]) => ({
        leaseKey,
        title: r.title,
        spans: r.spans,
        marks: r.marks,
      })),
      locks: [...locks.entries()].map(([lockName, r]) => ({ name: lockName, spans: r.spans, marks: r.marks })),
      writes,
      ticks: [],
    };
  });
}
