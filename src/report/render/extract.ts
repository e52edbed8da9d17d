import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { RunResult } from '../../scenario/replay/runner.js';
import { extractAssertions, failMarkers } from './assertions.js';
import { extractClientLanes, type LeaseRef } from './client-lanes.js';
import { extractGlobalMarkers } from './global-markers.js';
import { extractLeaseLanes } from './lease-lanes.js';
import { extractMemberLanes } from './member-lanes.js';
import { naturalCompare } from './natural-order.js';
import type { ClientLane, LeaseLane, Mark, MemberLane, Timeline } from './model.js';
import { TraceView } from './trace-view.js';

export interface ExtractOptions {
  /** Lease lanes drawn at most; later leases are counted, not drawn. Default 200. */
  readonly maxLeaseLanes?: number;
}

/** Members n1..nN of the scenario, plus any other `n<digits>` that appears in the trace. */
function memberNames(result: RunResult): string[] {
  const names = new Set<string>();
  for (let i = 1; i <= result.scenario.cluster.members; i++) names.add(`n${i}`);
  for (const e of result.trace.events) if (/^n\d+$/.test(e.member)) names.add(e.member);
  return [...names].sort(naturalCompare);
}

/** The time range drawn: from min(0, first event) to the scenario's end (or the last event, if later). */
function timeRange(result: RunResult): { startUs: Micros; endUs: Micros } {
  let startUs = 0;
  let endUs = result.scenario.durationUs;
  for (const e of result.trace.events) {
    if (e.t < startUs) startUs = e.t;
    if (e.t > endUs) endUs = e.t;
  }
  return { startUs, endUs: endUs > startUs ? endUs : startUs + MICROS_PER_SECOND };
}

/** Reads a run into lanes and markers: everything the timeline draws, nothing about how. */
export function extractTimeline(result: RunResult, opts: ExtractOptions = {}): Timeline {
  const { startUs, endUs } = timeRange(result);
  const view = new TraceView(result.trace.events, memberNames(result), startUs, endUs);

  const sessions = new Map<bigint, string>();
  for (const e of view.events)
    if (e.kind === 'client-session-start' && e.lease !== undefined) sessions.set(e.lease, `session of ${e.member}`);
  const labelOf = (id: bigint): string | undefined => result.labels.labelOf(id) ?? sessions.get(id);

  const members = extractMemberLanes(view);
  const { lanes: leases, hidden } = extractLeaseLanes(view, labelOf, opts.maxLeaseLanes ?? 200);
  const clients = extractClientLanes(view, leaseLookup(leases));
  const { markers, partitions } = extractGlobalMarkers(view);
  const assertions = extractAssertions(view, result.assertions);

  // Every event nobody drew is a plain tick on its own member's lane.
  const ticks = new Map<string, Mark[]>();
  view.events.forEach((e, i) => {
    if (view.claimed(i)) return;
    const lane = e.member === 'ctl' || e.member.startsWith('ctl-') ? 'ctl' : e.member;
    const list = ticks.get(lane) ?? [];
    list.push(view.mark(i));
    ticks.set(lane, list);
  });
  const withTicks = <L extends MemberLane | ClientLane>(l: L): L => ({ ...l, ticks: ticks.get(l.name) ?? [] });

  return {
    startUs,
    endUs,
    members: members.map(withTicks),
    leases,
    hiddenLeases: hidden,
    clients: clients.map(withTicks),
    harness: { name: 'sim', title: 'steps & checks', ticks: ticks.get('sim') ?? [] },
    ctl: { name: 'ctl', title: 'etcdctl', ticks: ticks.get('ctl') ?? [] },
    markers: [...markers, ...failMarkers(assertions)].sort((a, b) => a.t - b.t),
    partitions,
    assertions,
  };
}

/** The lease lane an event at `t` refers to: the latest one with that ID granted by then. */
function leaseLookup(leases: readonly LeaseLane[]): (id: bigint, t: Micros) => LeaseRef | undefined {
  const byId = new Map<bigint, LeaseLane[]>();
  for (const l of leases) byId.set(l.id, [...(byId.get(l.id) ?? []), l]);
  return (id, t) => {
    const all = byId.get(id);
    if (all === undefined) return undefined;
    const found = all.filter((l) => l.grantedUs <= t).at(-1) ?? all[0]!;
    const revokeLine = found.marks.find((m) => m.kind === 'lease-revoke')?.line;
    return { key: found.key, title: found.label ?? found.hex, revokedUs: found.revokedUs, revokeLine };
  };
}
