/** Plays a generated run's commands against a fresh model, producing its scenario steps. */
import fc from 'fast-check';
import type { Micros } from '../../clock/time.js';
import type { GeneratedRun } from '../arbitraries/run-arb.js';
import { newSimModel } from '../commands/sim-model.js';
import type { DraftStep } from '../draft/format-step.js';
import { ScenarioDraft } from '../draft/scenario-draft.js';

export interface DraftedRun {
  readonly steps: readonly DraftStep[];
  readonly durationUs: Micros;
}

export function draftRun(run: GeneratedRun): DraftedRun {
  const draft = new ScenarioDraft();
  const model = newSimModel(run.setup.cluster.members);
  fc.modelRun(() => ({ model, real: draft }), run.commands);
  return { steps: draft.steps, durationUs: draft.durationUs(run.tailUs) };
}
