import { GEOMETRY, TOTAL_WIDTH } from './geometry.js';
import type { Mark } from './model.js';
import type { TimeScale } from './scale.js';
import { el, groupMarks, kindClass, kindsOf, svgText, tip } from './svg.js';

export interface LaneFrame {
  /** `data-lane`: `member:n1`, `lease:<hex>`, `client:c1`, `harness`, `ctl`. */
  readonly id: string;
  readonly cls: string;
  readonly y: number;
  readonly height: number;
  readonly label: string;
  /** Smaller second line under the label (a lease's hex ID). */
  readonly sublabel?: string;
  /** Hover text of the label. */
  readonly about: string;
  readonly extra?: Readonly<Record<string, string>>;
}

/** A lane: background, label, and `body` drawn in lane coordinates (y from the lane's top). */
export function lane(f: LaneFrame, body: string): string {
  const labelY = f.sublabel === undefined ? Math.min(f.height / 2 + 4, 19) : 15;
  const label = el(
    'g',
    { class: 'lane-label' },
    tip(f.about, []),
    el('rect', { class: 'hit', x: 0, y: 0, width: GEOMETRY.labelWidth - 4, height: f.height }),
    svgText({ class: 'label', x: 10, y: labelY }, f.label),
    f.sublabel === undefined ? '' : svgText({ class: 'sublabel', x: 10, y: labelY + 13 }, f.sublabel),
  );
  return el(
    'g',
    { class: `lane ${f.cls}`, 'data-lane': f.id, ...(f.extra ?? {}), transform: `translate(0,${f.y})` },
    el('rect', { class: 'lane-bg', x: 0, y: 0, width: TOTAL_WIDTH, height: f.height }),
    label,
    body,
  );
}

/** A row's name, right-aligned in the label column. */
export function rowLabel(y: number, name: string): string {
  return svgText({ class: 'row-label', x: GEOMETRY.labelWidth - 8, y: y + 3.5, 'text-anchor': 'end' }, name);
}

/**
 * Plain ticks for events no other mark shows, so nothing in the trace is invisible: a thin line each,
 * neighbours within 3 px merged into one hoverable tick listing every line.
 */
export function ticks(marks: readonly Mark[], scale: TimeScale, y: number, h: number): string {
  return groupMarks(marks, scale, 3, () => '')
    .map((g) => {
      const classes = g.marks.map((m) => kindClass(m.kind));
      const cls = classes.includes('error') ? 'error' : classes[0]!;
      return el(
        'g',
        { class: `mk tick t-${cls}`, 'data-kind': kindsOf(g) },
        tip(
          undefined,
          g.marks.map((m) => m.line),
        ),
        el('rect', { class: 'hit', x: g.x - 3, y, width: 6, height: h }),
        el('line', { x1: g.x, y1: y, x2: g.x, y2: y + h }),
      );
    })
    .join('');
}
