import { lane, ticks } from './draw-lane.js';
import { GEOMETRY } from './geometry.js';
import type { MemberLane } from './model.js';
import type { TimeScale } from './scale.js';
import { el, groupMarks, pathD, svgText, tip } from './svg.js';

const BAR_Y = 5;
const BAR_H = 16;

/** A member's lane: its role over time as colored bars, T<term> where it takes the lead, lessor marks. */
export function drawMember(m: MemberLane, scale: TimeScale, y: number): string {
  const h = GEOMETRY.memberHeight;
  const roles = m.roles
    .map((s) =>
      el(
        'rect',
        {
          class: `seg role-${s.state}`,
          'data-state': s.state,
          x: scale.xc(s.startUs),
          y: BAR_Y,
          width: Math.max(0.5, scale.xc(s.endUs) - scale.xc(s.startUs)),
          height: BAR_H,
        },
        tip(s.summary, s.lines),
      ),
    )
    .join('');
  const terms = m.terms
    .map((t) => svgText({ class: 'term', x: scale.xc(t.t) + 3, y: BAR_Y + 12 }, `T${t.term}`))
    .join('');
  const lessor = groupMarks(m.lessor, scale)
    .map((g) => {
      const promote = g.marks[0]!.kind === 'lessor-promote';
      const top = BAR_Y - 1;
      const bottom = BAR_Y + BAR_H + 1;
      const d = promote
        ? pathD([
            [g.x - 4, top],
            [g.x + 4, top],
            [g.x, top + 6],
          ])
        : pathD([
            [g.x - 4, bottom],
            [g.x + 4, bottom],
            [g.x, bottom - 6],
          ]);
      const summary = promote ? `${m.name}'s lessor becomes primary` : `${m.name}'s lessor is demoted`;
      return el(
        'g',
        { class: `mk ${promote ? 'promote' : 'demote'}`, 'data-kind': g.marks[0]!.kind },
        tip(
          summary,
          g.marks.map((x) => x.line),
        ),
        el('path', { d }),
      );
    })
    .join('');
  const about =
    `member ${m.name}: role over time (leader, follower, candidate, crashed, ` +
    `paused); ▼ lessor promoted, ▲ demoted; ticks below are its other events`;
  return lane(
    { id: `member:${m.name}`, cls: 'lane-member', y, height: h, label: m.name, about },
    roles + terms + lessor + ticks(m.ticks, scale, BAR_Y + BAR_H + 2, h - BAR_Y - BAR_H - 3),
  );
}
