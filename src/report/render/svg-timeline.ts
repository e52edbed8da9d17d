import { drawAxis, drawBands, drawMarkers, packLabels } from './draw-axis.js';
import { clientHeight, drawClient } from './draw-client.js';
import { drawEventLane, drawHarness } from './draw-events.js';
import { drawLease } from './draw-lease.js';
import { drawMember } from './draw-member.js';
import { GEOMETRY, TOTAL_WIDTH } from './geometry.js';
import type { Timeline } from './model.js';
import { TimeScale } from './scale.js';
import { el, svgText } from './svg.js';
import { drawSignals } from './draw-signals.js';
import type { SignalPanel } from './signal-panel.js';

const PATTERNS = [
  el(
    'pattern',
    { id: 'hatch-paused', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
    el('rect', { width: 6, height: 6, fill: '#e0e0e0' }),
    el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#8a8a8a', 'stroke-width': 2.5 }),
  ),
  el(
    'pattern',
    { id: 'hatch-none', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
    el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#b0b0b0', 'stroke-width': 1.5 }),
  ),
  el(
    'pattern',
    { id: 'hatch-gone', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
    el('rect', { width: 6, height: 6, fill: '#f3c1c1' }),
    el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#c62828', 'stroke-width': 2.5 }),
  ),
].join('');

/** The whole timeline as one SVG element, lanes stacked under the axis. */
export function timelineSvg(tl: Timeline, signals?: SignalPanel): string {
  const scale = new TimeScale(tl.startUs, tl.endUs, GEOMETRY.labelWidth, GEOMETRY.plotWidth);
  const slots = packLabels(tl.markers, scale);
  const labelRows = Math.max(1, ...slots.map((s) => s.row + 1));
  const axisY = labelRows * GEOMETRY.markerRowHeight + GEOMETRY.axisHeight;

  let y = axisY + 2;
  const lanes: string[] = [];
  const section = (name: string): void => {
    lanes.push(svgText({ class: 'section', x: 6, y: y + 14 }, name));
    y += GEOMETRY.sectionHeight;
  };
  lanes.push(drawHarness(tl.harness, tl.assertions, scale, y));
  y += GEOMETRY.harnessHeight;
  section('members');
  for (const m of tl.members) {
    lanes.push(drawMember(m, scale, y));
    y += GEOMETRY.memberHeight;
  }
  if (tl.leases.length > 0 || tl.hiddenLeases > 0) section(`leases (${tl.leases.length + tl.hiddenLeases})`);
  for (const l of tl.leases) {
    lanes.push(drawLease(l, scale, y));
    y += GEOMETRY.leaseHeight;
  }
  if (tl.hiddenLeases > 0) {
    lanes.push(
      svgText(
        { class: 'note', x: GEOMETRY.labelWidth, y: y + 14 },
        `… ${tl.hiddenLeases} more leases granted later are not drawn`,
      ),
    );
    y += GEOMETRY.sectionHeight;
  }
  if (tl.clients.length > 0) section('clients');
  for (const c of tl.clients) {
    lanes.push(drawClient(c, scale, y));
    y += clientHeight(c);
  }
  if (tl.ctl.ticks.length > 0) {
    lanes.push(drawEventLane(tl.ctl, scale, y));
    y += GEOMETRY.ctlHeight;
  }
  if (signals !== undefined) {
    section('signals (alerts, then the series their rules read)');
    const drawn = drawSignals(signals, scale, y);
    lanes.push(drawn.svg);
    y += drawn.height;
  }
  const bottom = y + GEOMETRY.bottomPad;

  return el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'timeline',
      width: TOTAL_WIDTH,
      height: bottom,
      viewBox: `0 0 ${TOTAL_WIDTH} ${Math.ceil(bottom)}`,
      role: 'img',
      'aria-label': 'timeline',
    },
    el('defs', {}, PATTERNS),
    drawBands(scale, tl.partitions, axisY, bottom),
    drawAxis(scale, axisY, bottom),
    ...lanes,
    el('g', { class: 'markers' }, drawMarkers(tl.markers, slots, scale, axisY, bottom)),
  );
}
