import type { RunResult } from '../../scenario/replay/runner.js';
import { extractTimeline, type ExtractOptions } from './extract.js';
import { page } from './page.js';
import { timelineSvg } from './svg-timeline.js';
import { signalPanel } from './signal-panel.js';

export interface RenderOptions extends ExtractOptions {
  /** The page's <title>; default "<scenario name> — lessor-sim timeline". */
  readonly title?: string;
}

/**
 * A run as one self-contained HTML page: header (scenario, seed, profile, trace hash), an SVG timeline
 * with a lane per member, lease and client, markers across all lanes, and the PASS/FAIL list. Inline CSS
 * and a small inline script only; the same RunResult always renders to the same bytes.
 */
export function renderTimelineHtml(result: RunResult, opts: RenderOptions = {}): string {
  const svg = timelineSvg(extractTimeline(result, opts), signalPanel(result));
  return page(result, svg, opts.title ?? `${result.scenario.name} — lessor-sim timeline`);
}
