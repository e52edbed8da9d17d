/** The existing timeline renderer's SVG of a whole run, and where an instant falls on it (the cursor). */
import type { Micros } from '../clock/time.js';
import { extractTimeline } from '../report/render/extract.js';
import { GEOMETRY } from '../report/render/geometry.js';
import { TimeScale } from '../report/render/scale.js';
import { timelineSvg } from '../report/render/svg-timeline.js';
import type { RunResult } from '../scenario/replay/runner.js';

export { PAGE_CSS as TIMELINE_CSS } from '../report/render/page-style.js';

export interface TimelineView {
  readonly svg: string;
  readonly scale: TimeScale;
}

/** Lease lanes drawn below the state panels; the panels list the rest. */
const LEASE_LANES = 12;

/**
 * Past this many events the SVG (every renewal of every client drawn) gets too heavy for a live page;
 * the playground says so and `lessor-sim render` still draws it.
 */
export const TIMELINE_MAX_EVENTS = 60_000;

export function timelineOf(result: RunResult): TimelineView | undefined {
  if (result.trace.events.length > TIMELINE_MAX_EVENTS) return undefined;
  const tl = extractTimeline(result, { maxLeaseLanes: LEASE_LANES });
  return { svg: timelineSvg(tl), scale: new TimeScale(tl.startUs, tl.endUs, GEOMETRY.labelWidth, GEOMETRY.plotWidth) };
}

/** The instant under an x position of the plot, clamped to the run. */
export function timeAt(scale: TimeScale, x: number): Micros {
  return Math.round(Math.min(scale.endUs, Math.max(scale.startUs, scale.startUs + (x - scale.left) / scale.pxPerUs)));
}
