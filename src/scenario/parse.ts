/**
 * Scenario text (YAML or JSON) to a validated Scenario, or to every positioned error found. Never throws:
 * the simulator and CLI must survive any input.
 */
import { seconds, type Micros } from '../clock/time.js';
import { INVALID, mismatch, type Invalid } from './codec.js';
import { ParseContext } from './context.js';
import { formatDuration } from './duration.js';
import { complete, decodeFields } from './fields.js';
import { loadYaml } from './load-yaml.js';
import { TOP_LEVEL_FIELDS } from './scenario-fields.js';
import { stepEndUs } from './step-kinds.js';
import type { Scenario, ScenarioError, Step } from './types.js';

export { formatError } from './errors.js';

export interface ParseOptions {
  /** Bug names the simulator implements; `bugs` entries outside it are errors. Unchecked when absent. */
  readonly knownBugs?: readonly string[];
}

export type ParseResult =
  | { readonly ok: true; readonly scenario: Scenario }
  | { readonly ok: false; readonly errors: readonly ScenarioError[] };

export function parseScenario(text: string, file: string, opts: ParseOptions = {}): ParseResult {
  const ctx = new ParseContext(file, opts.knownBugs);
  try {
    const scenario = decodeScenario(text, file, ctx);
    if (scenario !== INVALID && ctx.errors.count === 0) return { ok: true, scenario };
  } catch (e) {
    // A bug in this parser or in the yaml library still becomes a positioned error, not a crash.
    ctx.error({ file, line: 1, col: 1 }, `internal error while parsing: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { ok: false, errors: ctx.errors.sorted(file) };
}

function decodeScenario(text: string, file: string, ctx: ParseContext): Scenario | Invalid {
  const root = loadYaml(text, file, ctx.errors);
  if (root === undefined) return INVALID;
  if (root.kind !== 'map') return mismatch(ctx, root, 'a scenario: a map with at least "name" and "steps"');
  const decoded = decodeFields(TOP_LEVEL_FIELDS, root, 'scenario', ctx);
  const fields = complete(decoded);
  if (fields === INVALID) return INVALID;
  const { durationUs, ...rest } = fields;
  const lastAtUs = fields.steps.at(-1)?.atUs ?? 0;
  if (durationUs !== undefined && durationUs < lastAtUs) {
    ctx.error(
      decoded.posOf.durationUs ?? root.pos,
      `duration ${formatDuration(durationUs)} ends before the last step at ${formatDuration(lastAtUs)}`,
    );
    return INVALID;
  }
  const runUntilUs = durationUs ?? lastActionUs(fields.steps) + seconds(1);
  if (!Number.isSafeInteger(runUntilUs)) {
    ctx.error(root.pos, 'the steps run past the largest virtual time the simulation can represent');
    return INVALID;
  }
  return { file, ...rest, durationUs: runUntilUs };
}

/** When the last scheduled action happens: a step's time, or later for spread grants and timed pauses. */
function lastActionUs(steps: readonly Step[]): Micros {
  let last = 0;
  for (const s of steps) last = Math.max(last, stepEndUs(s));
  return last;
}
