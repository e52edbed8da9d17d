import { GEOMETRY, TOTAL_WIDTH } from './geometry.js';
import type { GlobalMarker, Span } from './model.js';
import { axisTicks, type TimeScale } from './scale.js';
import { el, svgText, tip } from './svg.js';

/** The time axis: tick labels in virtual seconds, with light grid lines down through every lane. */
export function drawAxis(scale: TimeScale, axisY: number, bottom: number): string {
  const ticks = axisTicks(scale)
    .map((t) => {
      const x = scale.x(t.t);
      return (
        el('line', { class: t.t === 0 ? 'grid zero' : 'grid', x1: x, y1: axisY, x2: x, y2: bottom }) +
        el('line', { class: 'axis-tick', x1: x, y1: axisY - 5, x2: x, y2: axisY }) +
        svgText({ class: 'axis-label', x, y: axisY - 8, 'text-anchor': 'middle' }, t.label)
      );
    })
    .join('');
  const caption = svgText(
    { class: 'axis-caption', x: GEOMETRY.labelWidth - 8, y: axisY - 8, 'text-anchor': 'end' },
    'virtual time',
  );
  return el(
    'g',
    { class: 'axis' },
    el('line', { class: 'axis-line', x1: scale.left, y1: axisY, x2: scale.right, y2: axisY }),
    ticks,
    caption,
  );
}

/** Shading behind the lanes: the cluster's bootstrap before time 0, and partitioned stretches. */
export function drawBands(scale: TimeScale, partitions: readonly Span[], axisY: number, bottom: number): string {
  let out = '';
  if (scale.startUs < 0) {
    const x0 = scale.x(scale.startUs);
    const w = scale.x(0) - x0;
    out += el(
      'g',
      { class: 'band bootstrap' },
      tip("cluster bootstrap: the first election happens before the scenario's time 0", []),
      el('rect', { x: x0, y: axisY, width: w, height: bottom - axisY }),
    );
  }
  for (const p of partitions) {
    const x0 = scale.xc(p.startUs);
    out += el(
      'g',
      { class: 'band partition' },
      tip(p.summary, p.lines),
      el('rect', { x: x0, y: axisY, width: Math.max(0.5, scale.xc(p.endUs) - x0), height: bottom - axisY }),
    );
  }
  return out;
}

/** Where each marker's label goes: its x and its row above the axis (-1: no room, left off). */
export interface LabelSlot {
  readonly x: number;
  readonly row: number;
}

/** Puts each label in the first row where it does not overlap an earlier one, at most `markerRows` rows. */
export function packLabels(markers: readonly GlobalMarker[], scale: TimeScale): LabelSlot[] {
  const rowEnds: number[] = [];
  return markers.map((m) => {
    const width = m.label.length * 6 + 6;
    const x = Math.min(scale.xc(m.t) + 2, TOTAL_WIDTH - width);
    let row = rowEnds.findIndex((end) => end < x);
    if (row < 0 && rowEnds.length < GEOMETRY.markerRows) row = rowEnds.push(0) - 1;
    if (row >= 0) rowEnds[row] = x + width;
    return { x, row };
  });
}

/**
 * Vertical lines across every lane for leader changes, partitions, heals, crashes, restarts, clock jumps
 * and failed assertions, labelled above the axis. The lines let the mouse through to the marks under
 * them; the hover text is on the label and the strip above the axis (also where a label had no room).
 */
export function drawMarkers(
  markers: readonly GlobalMarker[],
  slots: readonly LabelSlot[],
  scale: TimeScale,
  axisY: number,
  bottom: number,
): string {
  return markers
    .map((m, i) => {
      const x = scale.xc(m.t);
      const slot = slots[i]!;
      let label = '';
      if (slot.row >= 0) {
        const ly = axisY - GEOMETRY.axisHeight + 2 - slot.row * GEOMETRY.markerRowHeight;
        label =
          el('line', { class: 'gm-connector', x1: x, y1: ly + 2, x2: x, y2: axisY }) +
          svgText({ class: 'gm-label', x: slot.x, y: ly }, m.label);
      }
      return el(
        'g',
        { class: `gm gm-${m.kind}`, 'data-marker': m.kind },
        tip(m.label, m.lines),
        el('rect', { class: 'hit', x: x - 3, y: 0, width: 6, height: axisY }),
        el('line', { class: 'gm-line', x1: x, y1: axisY, x2: x, y2: bottom }),
        label,
      );
    })
    .join('');
}
