/**
 * The scenario a run is built as. Model commands append steps to a draft; the draft then yields both the
 * Scenario object the runner replays and the file text, laid out line for line the same way, so the
 * file parses back to exactly that Scenario (positions included) and `lessor-sim run FILE` replays the
 * same run. Building the object directly instead of parsing the text keeps a property run cheap.
 */
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { Scenario, SourcePos, Step } from '../../scenario/types.js';
import { formatStep, type DraftStep } from './format-step.js';
import { formatSetup, setupLineCount, type RunSetup } from './run-setup.js';

/** Comment lines to print before the step with the same index (or at the end, index = steps.length). */
export type DraftComments = ReadonlyMap<number, readonly string[]>;

export interface DraftLayout {
  readonly name: string;
  readonly file: string;
  /** Comment lines above `name:`. */
  readonly header?: readonly string[];
  readonly comments?: DraftComments;
}

// `  - at: …` puts the step map's first key in column 5; `    expect: {` puts the assertion in column 13.
const STEP_COL = 5;
const ASSERTION_COL = 13;

export class ScenarioDraft {
  private readonly list: DraftStep[] = [];

  add(step: DraftStep): void {
    this.list.push(step);
  }

  get steps(): readonly DraftStep[] {
    return this.list;
  }

  /** When the run ends: `tailUs` (at least a second) after the last step's last action. */
  durationUs(tailUs: Micros = 0): Micros {
    let last = 0;
    for (const s of this.list) {
      const end =
        s.kind === 'grant-many'
          ? s.atUs + s.spreadUs
          : s.kind === 'pause' || s.kind === 'stall'
            ? s.atUs + (s.forUs ?? 0)
            : s.atUs;
      last = Math.max(last, end);
    }
    return last + Math.max(MICROS_PER_SECOND, tailUs);
  }
}

/** The file's lines before the steps: header comments, the setup, `steps:`. */
function head(setup: RunSetup, steps: readonly DraftStep[], durationUs: Micros, l: DraftLayout): string[] {
  return [
    ...(l.header ?? []).map((c) => `# ${c}`.trimEnd()),
    ...formatSetup(l.name, setup, durationUs),
    steps.length > 0 ? 'steps:' : 'steps: []',
  ];
}

/**
 * The line each step lands on in the file `renderScenario` writes. Counted rather than printed: a
 * campaign drafts every run but writes a file only for a counterexample.
 */
function stepLines(setup: RunSetup, steps: readonly DraftStep[], l: DraftLayout): number[] {
  const out: number[] = [];
  let line = (l.header?.length ?? 0) + setupLineCount(setup) + 2;
  for (let i = 0; i < steps.length; i++) {
    line += l.comments?.get(i)?.length ?? 0;
    out.push(line);
    line += 2;
  }
  return out;
}

function placed(step: DraftStep, pos: SourcePos): Step {
  if (step.kind !== 'expect') return { ...step, pos } as Step;
  return {
    ...step,
    pos,
    assertion: { ...step.assertion, pos: { ...pos, line: pos.line + 1, col: ASSERTION_COL } },
  } as Step;
}

/** The Scenario the file of `renderScenario` parses to. */
export function draftScenario(
  setup: RunSetup,
  steps: readonly DraftStep[],
  durationUs: Micros,
  l: DraftLayout,
): Scenario {
  const lines = stepLines(setup, steps, l);
  return {
    file: l.file,
    name: l.name,
    tags: [],
    profile: setup.profile,
    seed: setup.seed,
    cluster: setup.cluster,
    bugs: [...setup.bugs],
    ...((setup.fixes ?? []).length > 0 ? { fixes: [...setup.fixes!] } : {}),
    steps: steps.map((s, i) => placed(s, { file: l.file, line: lines[i]!, col: STEP_COL })),
    durationUs,
  };
}

/** The scenario file text. */
export function renderScenario(
  setup: RunSetup,
  steps: readonly DraftStep[],
  durationUs: Micros,
  l: DraftLayout,
): string {
  const out = head(setup, steps, durationUs, l);
  const indent = (text: string): string[] => text.split('\n').map((x) => `  ${x}`);
  steps.forEach((s, i) => {
    for (const c of l.comments?.get(i) ?? []) out.push(`  # ${c}`.trimEnd());
    out.push(...indent(formatStep(s)));
  });
  for (const c of l.comments?.get(steps.length) ?? []) out.push(`  # ${c}`.trimEnd());
  return `${out.join('\n')}\n`;
}
