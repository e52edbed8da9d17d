import type { GlobalMarker, Span } from './model.js';
import { formatSecondsShort, formatTime } from '../../clock/time.js';
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
        if (view.isMember(e.member) && e.fields.role === 'leader')
          add('leader', `${e.member} leads (term ${e.fields.term})`);
        return;
      case 'net-partition': {
        const groups = e.fields.groups.map((g) => g.join(',')).join(' | ');
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
        const d = e.fields.delta;
        add('clock', `${e.member} clock ${d >= 0 ? '+' : ''}${formatSecondsShort(d)} s`);
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
