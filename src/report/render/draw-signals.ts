/**
 * The signal panel: an alert lane per rule (pending in amber, firing in red), then a lane per series
 * (counters as steps, gauges as lines, gaps where a scrape failed), on the timeline's time axis.
 */
import { GEOMETRY } from './geometry.js';
import { lane } from './draw-lane.js';
import type { TimeScale } from './scale.js';
import type { PlottedSeries, SignalPanel } from './signal-panel.js';
import { el, num, svgText, tip } from './svg.js';

const ALERT_HEIGHT = 22;
const SERIES_HEIGHT = 40;

function seriesPath(s: PlottedSeries, scale: TimeScale, height: number): string {
  const values = s.points.map(([, v]) => v).filter((v): v is number => v !== null);
  const lo = Math.min(0, ...values);
  const hi = Math.max(1, ...values);
  const y = (v: number) => height - 5 - ((v - lo) / (hi - lo)) * (height - 12);
  let d = '';
  let prev: number | null = null;
  for (const [t, v] of s.points) {
    const x = scale.xc(t);
    if (v === null) prev = null;
    else if (prev === null) d += ` M${num(x)},${num(y(v))}`;
    // A counter holds its value until the next scrape; a gauge is drawn straight between scrapes.
    else d += s.type === 'gauge' ? ` L${num(x)},${num(y(v))}` : ` H${num(x)} V${num(y(v))}`;
    if (v !== null) prev = v;
  }
  const last = values.at(-1);
  return (
    el('path', { d: d.trim(), fill: 'none', stroke: s.type === 'gauge' ? '#0969da' : '#6f42c1', 'stroke-width': 1.5 }) +
    svgText({ class: 'row-label', x: scale.right + 4, y: y(hi) + 3 }, String(hi)) +
    (last === undefined ? '' : el('g', {}, tip(`${s.label}: last ${last}`, [])))
  );
}

/** The panel's lanes from `y` down, and their total height. */
export function drawSignals(panel: SignalPanel, scale: TimeScale, y: number): { svg: string; height: number } {
  const parts: string[] = [];
  let at = y;
  for (const a of panel.alerts) {
    const bands = a.bands.map((b) =>
      el(
        'g',
        {},
        tip(b.about, []),
        el('rect', {
          x: scale.xc(b.fromUs),
          y: 4,
          width: Math.max(1, scale.xc(b.toUs) - scale.xc(b.fromUs)),
          height: ALERT_HEIGHT - 8,
          fill: b.firing ? '#cf222e' : '#d4a72c',
          opacity: b.firing ? 0.75 : 0.45,
        }),
      ),
    );
    const quiet =
      a.bands.length === 0
        ? svgText({ class: 'note', x: scale.left + 4, y: ALERT_HEIGHT / 2 + 4 }, 'never active')
        : '';
    parts.push(
      lane(
        {
          id: `alert:${a.name}`,
          cls: 'lane-alert',
          y: at,
          height: ALERT_HEIGHT,
          label: `alert ${a.name}`,
          about: `alert ${a.name}: amber pending, red firing`,
        },
        bands.join('') + quiet,
      ),
    );
    at += ALERT_HEIGHT;
  }
  for (const s of panel.series) {
    parts.push(
      lane(
        {
          id: `series:${s.label}`,
          cls: 'lane-series',
          y: at,
          height: SERIES_HEIGHT,
          label: s.label.replace(/\{.*$/, ''),
          sublabel: s.label.replace(/^[^{]*/, ''),
          about: `${s.label} (${s.type})`,
        },
        seriesPath(s, scale, SERIES_HEIGHT),
      ),
    );
    at += SERIES_HEIGHT;
  }
  if (panel.hidden > 0) {
    parts.push(
      svgText(
        { class: 'note', x: GEOMETRY.labelWidth, y: at + 14 },
        `… ${panel.hidden} more series the rules read are not drawn`,
      ),
    );
    at += GEOMETRY.sectionHeight;
  }
  return { svg: parts.join(''), height: at - y };
}
