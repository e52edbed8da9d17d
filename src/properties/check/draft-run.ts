/** Plays a generated run's commands against a fresh model, producing its scenario steps. */
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
  // fc.modelRun's loop, without its closures per command: a command runs if its check passes.
  for (const c of run.commands) if (c.check(model)) c.run(model, draft);
  return { steps: draft.steps, durationUs: draft.durationUs(run.tailUs) };
}
