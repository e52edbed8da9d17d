/**
 * A real program's run judged by the holder monitors: the events the resource server recorded
 * (writes, beliefs), plus the truth of when each holder's lease ended, read back as a RunView over a
 * scenario with no steps. Under serve the truth comes from the simulated cluster's own `holder-revoked`
 * (AppTruth); against real etcd from watching the lock keys: a key a holder named in its belief is
 * deleted when its lease is revoked or expires.
 */
import type { Micros } from '../clock/time.js';
import { holderLives, type HolderLife, RunView, type Violation } from '../properties/index.js';
import { holderStopsBeforeRevoke } from '../properties/monitors/holder-stops-before-revoke.js';
import { noOverlap } from '../properties/monitors/no-overlap.js';
import { noStaleWriteAccepted } from '../properties/monitors/no-stale-write-accepted.js';
import { parseScenario } from '../scenario/parse.js';
import { LabelBook } from '../scenario/replay/labels.js';
import { Marks } from '../trace/marks.js';
import { Trace, type TraceEvent, type TraceEventMap } from '../trace/trace.js';

/** The monitors that judge holders; the same three `check` runs on built-in holders. */
export const APP_MONITORS = [noStaleWriteAccepted, noOverlap, holderStopsBeforeRevoke] as const;

/** A lock key seen deleted at `tUs` (a watch event from real etcd). */
export interface KeyDeletion {
  readonly key: string;
  readonly tUs: Micros;
}

/**
 * `holder-revoked` for each holder whose lock key was deleted while it held it: the lease of the latest
 * `holder-acquired` naming that key before the deletion, each lease at most once.
 */
export function revocationsFromDeletions(
  events: readonly TraceEvent[],
  deletions: readonly KeyDeletion[],
): TraceEvent[] {
  const out: TraceEvent[] = [];
  const done = new Set<bigint>();
  for (const d of deletions) {
    const owner = events
      .filter(
        (e): e is TraceEventMap['holder-acquired'] =>
          e.kind === 'holder-acquired' && e.fields.key === d.key && e.t <= d.tUs && e.lease !== undefined,
      )
      .at(-1);
    if (owner?.lease === undefined || done.has(owner.lease)) continue;
    done.add(owner.lease);
    out.push({ t: d.tUs, member: owner.member, kind: 'holder-revoked', lease: owner.lease, fields: { by: 'etcd' } });
  }
  return out;
}

export interface AppJudgement {
  /** The lock key judged ('' for holders that named none). */
  readonly key: string;
  readonly lives: readonly HolderLife[];
  readonly violations: readonly Violation[];
  /** The events judged, in time order (ties keep the order given). */
  readonly trace: Trace;
}

/**
 * Runs the holder monitors over `events` (any order) up to `endUs`, once per lock key: the holders of
 * one key are judged together (`no-overlap` is about one lock), each with every event under its name.
 */
export function judgeApps(events: readonly TraceEvent[], endUs: Micros): AppJudgement[] {
  const byKey = new Map<string, Set<string>>();
  for (const e of events) {
    if (e.kind !== 'holder-acquired') continue;
    const key = e.fields.key;
    if (!byKey.has(key)) byKey.set(key, new Set());
    byKey.get(key)!.add(e.member);
  }
  return [...byKey].map(([key, holders]) =>
    judgeOneLock(
      key,
      events.filter((e) => holders.has(e.member)),
      endUs,
    ),
  );
}

function judgeOneLock(key: string, events: readonly TraceEvent[], endUs: Micros): AppJudgement {
  const trace = new Trace();
  for (const e of [...events].sort((a, b) => a.t - b.t)) trace.emit(e);
  const parsed = parseScenario(`name: apps\nduration: ${Math.max(1, Math.ceil(endUs / 1000))}ms\nsteps: []\n`, 'apps');
  if (!parsed.ok) throw new Error(`internal: the apps scenario does not parse: ${parsed.errors[0]?.message}`);
  const view = new RunView({
    scenario: parsed.scenario,
    seed: 0,
    profile: parsed.scenario.profile,
    assertions: [],
    setupError: undefined,
    trace,
    marks: new Marks(),
    labels: new LabelBook(),
    cluster: undefined,
    passed: true,
  });
  const violations = APP_MONITORS.map((m) => m.check(view)).filter((v): v is Violation => v !== undefined);
  return { key, lives: holderLives(view), violations, trace };
}
