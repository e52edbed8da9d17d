/**
 * K14 wall-clock independence, checked differentially: a run with `clock` steps is replayed without
 * them (same seed, same everything else) and every labelled lease must be revoked at the same time in
 * both, within a run-loop tick and a commit. A wall-clock jump that moves a revocation is E1
 * (etcd-io/etcd#12291: 3.4 keyed the expiry heap on the wall clock). Since `expired()` reads the
 * monotonic clock, a jump can only make a lease look due late (or not at all); so the replay, which
 * doubles the cost of a run, is done only when a wall clock the jumps moved is read by anything
 * (otherwise the replay would be this run), and then only when some lease was offered late after that
 * first read (before it the two runs are the same run, lateness included) or is overdue at the end.
 */
import { formatSeconds, type Micros } from '../../clock/time.js';
import { PROFILES } from '../../switches/profile.js';
import { runScenario } from '../../scenario/replay/runner.js';
import type { Scenario } from '../../scenario/types.js';
import { Trace, expiryOf } from '../../trace/trace.js';
import { leaseExists } from './expects.js';
import { earliest, type Monitor } from './monitor.js';
import type { RunView } from './run-view.js';
import type { Violation } from './violation.js';

export const wallClockIndependence: Monitor = {
  name: 'wall-clock-independence',
  check(view) {
    const s = view.scenario;
    const readUs = wallClockReadFrom(s, view.result.profile);
    if (readUs === Infinity || !somethingLate(view, readUs)) return undefined;
    // The monitor reads the calm run's revokes as they happen, never its hash. It keeps the events as
    // any replay does (a scenario's signal steps read them).
    const calmTrace = new Trace(true, true, false);
    const calmFirst = new Map<bigint, { t: Micros; index: number }>();
    calmTrace.subscribe((e) => {
      if (e.kind === 'lease-revoke' && e.lease !== undefined && !calmFirst.has(e.lease))
        calmFirst.set(e.lease, { t: e.t, index: calmTrace.length - 1 });
    });
    const calm = runScenario(
      { ...s, steps: s.steps.filter((st) => st.kind !== 'clock') },
      { seed: view.result.seed, profile: view.result.profile, trace: calmTrace },
    );
    const calmRevokes = byLabel(calmFirst, (id) => calm.labels.labelOf(id));
    const ownFirst = new Map<bigint, { t: Micros; index: number }>();
    for (const id of view.leases()) {
      const index = view.firstRevoke(id);
      if (index !== undefined) ownFirst.set(id, { t: view.at(index).t, index });
    }
    const ownRevokes = byLabel(ownFirst, (id) => view.labelOf(id));
    const tolerance = view.timings.loopUs + view.timings.commitSlackUs;
    const found: Violation[] = [];
    for (const [label, id] of view.result.labels.entries()) {
      const own = ownRevokes.get(label);
      const other = calmRevokes.get(label);
      if (own === undefined && other === undefined) continue;
      const ownT = own?.t ?? Infinity;
      const otherT = other?.t ?? Infinity;
      if (
        Math.abs(ownT - otherT) <= tolerance ||
        (ownT === Infinity && otherT > view.endUs - tolerance) ||
        (otherT === Infinity && ownT > view.endUs - tolerance)
      )
        continue;
      const jump = view.ofKind('member-clock-jump').find((i) => view.at(i).t <= Math.min(ownT, otherT));
      const index = own?.index ?? jump ?? 0;
      const at = Math.min(ownT, otherT);
      const expects =
        otherT < ownT ? leaseExists(view, id, false, [otherT + tolerance]) : leaseExists(view, id, true, [ownT]);
      found.push(
        view.violation(
          'wall-clock-independence',
          index,
          `lease ${label} was revoked at ${show(ownT)} with the wall-clock jumps and at ${show(otherT)} without them`,
          expects,
          at,
        ),
      );
    }
    return earliest(found);
  },
};

/**
 * Whether some `clock` step moves a wall clock that is read: the expiry heaps when they are keyed on it
 * (3.4, bug E1), a member's request and lease IDs when it boots again after its jump (they start from
 * its wall clock), a client's (holders read it; a client step also creates the client). Nothing else
 * reads a wall clock, so without any of these the calm replay would be this very run.
 */
export function wallClockRead(s: Scenario, profile: Scenario['profile']): boolean {
  return wallClockReadFrom(s, profile) !== Infinity;
}

/**
 * The first instant a wall clock some `clock` step moved is read (Infinity when never, as
 * `wallClockRead` says): the run and its calm replay are the same run before it.
 */
export function wallClockReadFrom(s: Scenario, profile: Scenario['profile']): Micros {
  let from = Infinity;
  const steps = s.steps;
  const everyJumpRead =
    PROFILES[profile].heapClock === 'wall' ||
    s.bugs.includes('expiry-queue-uses-wall-clock') ||
    steps.some((st) => st.kind === 'holder');
  for (let k = 0; k < steps.length; k++) {
    const j = steps[k]!;
    if (j.kind !== 'clock' || j.atUs >= from) continue;
    if (everyJumpRead || j.member === undefined) {
      from = j.atUs;
      continue;
    }
    for (const st of steps)
      if (st.kind === 'restart' && st.member === j.member && st.atUs >= j.atUs && st.atUs < from) from = st.atUs;
  }
  return from;
}

/**
 * A lease offered later than a tick and a commit after its expiry, from `fromUs` on, or overdue on a
 * primary at the end.
 */
function somethingLate(view: RunView, fromUs: Micros): boolean {
  const slack = view.timings.loopUs + view.timings.commitSlackUs;
  for (const i of view.ofKind('lease-expired')) {
    const e = view.eventOf(i, 'lease-expired');
    const x = expiryOf(e);
    if (x !== undefined && e.t >= fromUs && e.t > x + slack) return true;
  }
  const c = view.cluster;
  if (c === undefined) return false;
  return c.names.some((n) => {
    const lessor = c.server(n)?.lessor;
    return lessor?.isPrimary() && lessor.leases().some((l) => l.expiry < view.endUs - slack);
  });
}

const show = (t: Micros): string => (t === Infinity ? 'never' : formatSeconds(t));

/** Each label's first revoke: that of the first-revoked lease the label names. */
function byLabel(
  first: ReadonlyMap<bigint, { t: Micros; index: number }>,
  labelOf: (id: bigint) => string | undefined,
): Map<string, { t: Micros; index: number }> {
  const out = new Map<string, { t: Micros; index: number }>();
  for (const [id, r] of first) {
    const label = labelOf(id);
    const had = label === undefined ? undefined : out.get(label);
    if (label !== undefined && (had === undefined || r.index < had.index)) out.set(label, r);
  }
  return out;
}
