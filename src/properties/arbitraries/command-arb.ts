/** Command arbitraries: a spec, an arbitrary of its parameters and the gap before it, and weights among them. */
import fc from 'fast-check';
import type { Micros } from '../../clock/time.js';
import type { ScenarioDraft } from '../draft/scenario-draft.js';
import type { SimModel } from '../commands/sim-model.js';
import { StepCommand, type CommandSpec } from '../commands/step-command.js';

/** A model-based command over the run's model and draft. */
export type LeaseCommand = fc.Command<SimModel, ScenarioDraft>;

/** A command arbitrary and how often to pick it relative to the others. */
export type WeightedCommand = readonly [weight: number, arbitrary: fc.Arbitrary<LeaseCommand>];

export function commandArb<P>(
  spec: CommandSpec<P>,
  params: fc.Arbitrary<P>,
  gap: fc.Arbitrary<Micros>,
): fc.Arbitrary<LeaseCommand> {
  return fc.tuple(gap, params).map(([g, p]) => new StepCommand(spec, p, g));
}

/** One arbitrary that picks among the commands by weight (entries with weight 0 are left out). */
export function weighted(entries: readonly WeightedCommand[]): fc.Arbitrary<LeaseCommand> {
  const kept = entries.filter(([w]) => w > 0).map(([weight, arbitrary]) => ({ weight, arbitrary }));
  if (kept.length === 0) throw new RangeError('weighted: no command has a positive weight');
  return fc.oneof(...kept);
}
