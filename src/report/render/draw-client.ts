import { lane, rowLabel, ticks } from './draw-lane.js';
import { GEOMETRY } from './geometry.js';
import type { ClientLane, Mark, Span } from './model.js';
import type { TimeScale } from './scale.js';
import { el, groupMarks, kindsOf, pathD, svgText, tip } from './svg.js';

const PAD_TOP = 5;
const PAD_BOTTOM = 4;
const ROW = GEOMETRY.clientRowHeight;

type Row =
  | {
      readonly kind: 'keepalive';
      readonly label: string;
      readonly spans: readonly Span[];
      readonly marks: readonly Mark[];
    }
  | { readonly kind: 'lock'; readonly label: string; readonly spans: readonly Span[]; readonly marks: readonly Mark[] }
  | { readonly kind: 'writes'; readonly label: string; readonly marks: readonly Mark[] }
  | { readonly kind: 'events'; readonly label: string; readonly marks: readonly Mark[] };

function rowsOf(c: ClientLane): Row[] {
  const rows: Row[] = [
    ...c.keepAlives.map((k) => ({
      kind: 'keepalive' as const,
      label: `keep-alive ${k.title}`,
      spans: k.spans,
      marks: k.marks,
    })),
    ...c.locks.map((l) => ({ kind: 'lock' as const, label: `lock ${l.name}`, spans: l.spans, marks: l.marks })),
  ];
  if (c.writes.length > 0) rows.push({ kind: 'writes', label: 'fenced writes', marks: c.writes });
  if (c.ticks.length > 0 || rows.length === 0) rows.push({ kind: 'events', label: 'other events', marks: c.ticks });
  return rows;
}

export function clientHeight(c: ClientLane): number {
  return PAD_TOP + rowsOf(c).length * ROW + PAD_BOTTOM;
}

/**
 * A client's lane, one row per keep-alive channel (alive, then lost once closed), per lock (waiting,
 * held, held after its session lease was revoked), fenced writes (accepted or rejected) and its other
 * events, under a hatch where the client process was paused.
 */
export function drawClient(c: ClientLane, scale: TimeScale, y: number): string {
  const h = clientHeight(c);
  const paused = c.paused
    .map((s) => {
      const x0 = scale.xc(s.startUs);
      const w = Math.max(0.5, scale.xc(s.endUs) - x0);
      const label = w > 44 ? svgText({ class: 'paused-label', x: x0 + 3, y: h - 3 }, 'paused') : '';
      return el(
        'g',
        { class: 'client-paused', 'data-state': 'paused' },
        tip(s.summary, s.lines),
        el('rect', { x: x0, y: 1, width: w, height: h - 2 }),
        label,
      );
    })
    .join('');
  const rows = rowsOf(c)
    .map((r, i) => {
      const top = PAD_TOP + i * ROW;
      const mid = top + ROW / 2 - 1;
      let body = '';
      if (r.kind === 'keepalive' || r.kind === 'lock') {
        body += r.spans.map((s) => bar(s, scale, mid)).join('');
        body += groupMarks(r.marks, scale, 3)
          .map((g) =>
            el(
              'g',
              { class: `mk cmk ${g.marks[0]!.kind}`, 'data-kind': kindsOf(g) },
              tip(
                undefined,
                g.marks.map((m) => m.line),
              ),
              el('rect', { class: 'hit', x: g.x - 2.5, y: mid - 6, width: 5, height: 12 }),
              el('line', { x1: g.x, y1: mid - 5, x2: g.x, y2: mid + 5 }),
            ),
          )
          .join('');
      } else if (r.kind === 'writes') {
        body += groupMarks(r.marks, scale, 4, (m) => m.variant ?? '')
          .map((g) => {
            const v = g.marks[0]!.variant ?? 'accepted';
            const icon =
              v === 'accepted'
                ? pathD(
                    [
                      [g.x - 3, mid],
                      [g.x - 1, mid + 3],
                      [g.x + 3, mid - 3],
                    ],
                    true,
                  )
                : `${pathD(
                    [
                      [g.x - 2.5, mid - 2.5],
                      [g.x + 2.5, mid + 2.5],
                    ],
                    true,
                  )} ${pathD(
                    [
                      [g.x + 2.5, mid - 2.5],
                      [g.x - 2.5, mid + 2.5],
                    ],
                    true,
                  )}`;
            const summary = `fenced write ${v} (${g.marks.length})`;
            return el(
              'g',
              { class: `mk write-${v}`, 'data-kind': kindsOf(g), 'data-variant': v },
              tip(
                summary,
                g.marks.map((m) => m.line),
              ),
              el('circle', { cx: g.x, cy: mid, r: 5.5 }),
              el('path', { d: icon }),
            );
          })
          .join('');
      } else {
        body += ticks(r.marks, scale, top + 2, ROW - 4);
      }
      return rowLabel(mid, r.label) + el('g', { class: `row row-${r.kind}` }, body);
    })
    .join('');
  const about =
    `client ${c.name}: keep-alive channels (green alive, red lost), locks (purple held, red ` +
    `hatch held after its lease was revoked), fenced writes, paused stretches (gray hatch)`;
  return lane({ id: `client:${c.name}`, cls: 'lane-client', y, height: h, label: c.name, about }, paused + rows);
}

function bar(s: Span, scale: TimeScale, mid: number): string {
  const x0 = scale.xc(s.startUs);
  const w = Math.max(0.5, scale.xc(s.endUs) - x0);
  const thin = s.state === 'lost' || s.state === 'waiting';
  const hh = thin ? 3 : 8;
  return el(
    'rect',
    { class: `seg st-${s.state}`, 'data-state': s.state, x: x0, y: mid - hh / 2, width: w, height: hh },
    tip(s.summary, s.lines),
  );
}
