/**
 * Reports on a replay (`lessor-sim/report`): the narrated timeline, explain's chains of causes, the verdict summary,
 * the HTML timeline.
 */
export { narrate, type NarrateOptions } from './narrate.js';
export { explain } from './explain.js';
export { summary, toJson } from './summary.js';
export { renderTimelineHtml, extractTimeline, type RenderOptions, type ExtractOptions } from './render/index.js';
