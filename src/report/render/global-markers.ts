import type { AssertionResult } from '../../scenario/replay/runner.js';
import { fieldNum, fieldStr } from './fields.js';
import type { AssertionMark, GlobalMarker, Span } from './model.js';
import { formatSecondsShort, formatTime } from './time-format.js';
import type { TraceView } from './trace-view.js';

/**
 * Events that concern the whole cluster, drawn across every lane: a member taking the lead, partitions
 * and heals, crashes and restarts, clock jumps; plus the partitioned stretches.
 */
export function extractGlobalMarkers(view: TraceView): { markers: GlobalMarker[]; partitions: Span<'partition'>[] } {
  const markers: GlobalMarker[] = [];
  const partitions: Span<'partition'>[] = [];
  let open: { t: number; groups: string; line: string } | undefined;
  const closePartition = (t: number, line: string | undefined): void => {
    if (open === undefined) return;
    partitions.push({
      startUs: open.t,
      endUs: t,
      state: 'partition',
      summary: `partitioned ${open.groups}: ${formatTime(open.t)} → ${formatTime(t)}`,
      lines: line === undefined ? [open.line] : [open.line, line],
    });
    open = undefined;
  };
  view.events.forEach((e, i) => {
    const line = view.lines[i]!;
    const add = (kind: GlobalMarker['kind'], label: string): void => {
      markers.push({ t: e.t, kind, label, lines: [line] });
    };
    switch (e.kind) {
      case 'raft-role':
        if (view.isMember(e.member) && fieldStr(e, 'role') === 'leader') add('leader', `${e.member} leads (term ${fieldNum(e, 'term') ?? '?'})`);
        return;
      case 'net-partition': {
        const groups = (fieldStr(e, 'groups') ?? '?').split('|').join(' | ');
        closePartition(e.t, line);
        open = { t: e.t, groups, line };
        add('partition', `partition ${groups}`);
        break;
      }
      case 'net-heal':
        closePartition(e.t, line);
        add('heal', 'heal');
        break;
      case 'member-crash':
        add('crash', `${e.member} crashed`);
        return;
      case 'member-restart':
        add('restart', `${e.member} restarts`);
        return;
      case 'member-clock-jump': {
        const d = fieldNum(e, 'delta');
        add('clock', `${e.member} clock ${d === undefined ? 'jumps' : `${d >= 0 ? '+' : ''}${d} s`}`);
        return;
      }
      default:
        return;
    }
    view.claim(i);
  });
  closePartition(view.endUs, undefined);
  return { markers, partitions };
}

/** PASS/FAIL marks at each assertion's instant, each with the expect-pass / expect-fail line of the trace. */
export function extractAssertions(view: TraceView, results: readonly AssertionResult[]): AssertionMark[] {
  return results.map((a) => {
    const i = view.events.findIndex(
      (e, j) => !view.claimed(j) && e.member === 'sim' && e.t === a.atUs && (e.kind === 'expect-pass' || e.kind === 'expect-fail') && fieldNum(e, 'line') === a.step.pos.line,
    );
    if (i >= 0) view.claim(i);
    return { t: a.atUs, pass: a.pass, text: a.text, got: a.got, line: a.step.pos.line, traceLine: i >= 0 ? view.lines[i] : undefined };
  });
}

/** A red line across every lane where an assertion failed. */
export function failMarkers(assertions: readonly AssertionMark[]): GlobalMarker[] {
  return assertions
    .filter((a) => !a.pass)
    .map((a) => ({
      t: a.t,
      kind: 'fail' as const,
      label: `FAIL line ${a.line}`,
      lines: [`FAIL at ${formatSecondsShort(a.t)} s (line ${a.line}): ${a.text}; got ${a.got}`, ...(a.traceLine === undefined ? [] : [a.traceLine])],
    }));
}
