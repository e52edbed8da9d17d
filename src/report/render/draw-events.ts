import { lane, ticks } from './draw-lane.js';
import { GEOMETRY } from './geometry.js';
import type { AssertionMark, EventLane } from './model.js';
import type { TimeScale } from './scale.js';
import { el, pathD, svgText, tip } from './svg.js';
import { formatTime } from '../../clock/time.js';

/** The harness lane: PASS (green) / FAIL (red) marks at each assertion's instant, the steps as ticks. */
export function drawHarness(l: EventLane, assertions: readonly AssertionMark[], scale: TimeScale, y: number): string {
  const h = GEOMETRY.harnessHeight;
  const cy = 11;
  const groups: { x: number; pass: boolean; items: AssertionMark[] }[] = [];
  for (const a of [...assertions].sort((p, q) => p.t - q.t)) {
    const x = scale.xc(a.t);
    const g = groups.find((o) => o.pass === a.pass && x - o.x <= 6);
    if (g !== undefined) g.items.push(a);
    else groups.push({ x, pass: a.pass, items: [a] });
  }
  const marks = groups
    .map((g) => {
      const verdict = g.pass ? 'PASS' : 'FAIL';
      const lines = g.items.flatMap((a) => [
        `${verdict} at ${formatTime(a.t)} (line ${a.line}): ${a.text}; got ${a.got}`,
        ...(a.traceLine === undefined ? [] : [`  ${a.traceLine}`]),
      ]);
      const count =
        g.items.length > 1 ? svgText({ class: 'assert-count', x: g.x + 7, y: cy + 3.5 }, `×${g.items.length}`) : '';
      return el(
        'g',
        { class: `mk assert ${g.pass ? 'pass' : 'fail'}`, 'data-kind': g.pass ? 'expect-pass' : 'expect-fail' },
        tip(undefined, lines, 24),
        el('circle', { cx: g.x, cy, r: 5.5 }),
        el('path', {
          class: 'assert-glyph',
          d: g.pass
            ? pathD(
                [
                  [g.x - 2.6, cy],
                  [g.x - 0.8, cy + 2.4],
                  [g.x + 2.8, cy - 2.4],
                ],
                true,
              )
            : `${pathD(
                [
                  [g.x - 2.2, cy - 2.2],
                  [g.x + 2.2, cy + 2.2],
                ],
                true,
              )} ${pathD(
                [
                  [g.x + 2.2, cy - 2.2],
                  [g.x - 2.2, cy + 2.2],
                ],
                true,
              )}`,
        }),
        count,
      );
    })
    .join('');
  const about = 'the scenario harness: ✓ PASS / ✗ FAIL at each expect, ticks for each step as it is performed';
  return lane(
    { id: 'harness', cls: 'lane-harness', y, height: h, label: l.title, about },
    ticks(l.ticks, scale, 21, 10) + marks,
  );
}

/** A lane of plain ticks (etcdctl's requests and answers). */
export function drawEventLane(l: EventLane, scale: TimeScale, y: number): string {
  const h = GEOMETRY.ctlHeight;
  return lane(
    {
      id: l.name,
      cls: `lane-${l.name}`,
      y,
      height: h,
      label: l.title,
      about: `${l.title}: every request and answer (ctl-ok, ctl-error, ctl-granted …)`,
    },
    ticks(l.ticks, scale, 4, h - 8),
  );
}
