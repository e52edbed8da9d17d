/** The timeline renderer: a run's trace as a self-contained HTML page. */
export { renderTimelineHtml, type RenderOptions } from './render-timeline.js';
export { extractTimeline, type ExtractOptions } from './extract.js';
export type * from './model.js';
