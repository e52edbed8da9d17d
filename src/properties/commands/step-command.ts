/**
 * One model-based command: a scenario step generated with raw parameters, resolved against the model
 * when it runs (which lease, which member), appended to the run's draft. `toString()` prints the step in
 * scenario-file syntax (a flow map), so the comma-joined commands fast-check reports for a shrunk
 * counterexample are the items of its `steps: [...]` list.
 */
import fc from 'fast-check';
import type { Micros } from '../../clock/time.js';
import { formatDuration } from '../../scenario/duration.js';
import { formatStepFlow, type DraftStep } from '../draft/format-step.js';
import type { ScenarioDraft } from '../draft/scenario-draft.js';
import type { SimModel } from './sim-model.js';

export interface CommandSpec<P> {
  /** The step kind it produces (or a finer name: `pause-client`). */
  readonly name: string;
  /** Whether the step can run at time `at` in the model's state. */
  check(m: Readonly<SimModel>, p: P, at: Micros): boolean;
  /** The step at `m.now` (already advanced); records its effect in the model. */
  step(m: SimModel, p: P): DraftStep;
}

export class StepCommand<P> implements fc.Command<SimModel, ScenarioDraft> {
  private ran: DraftStep | undefined;

  constructor(
    readonly spec: CommandSpec<P>,
    readonly params: P,
    /** Virtual time between the previous step and this one. */
    readonly gapUs: Micros,
  ) {}

  check(m: Readonly<SimModel>): boolean {
    return this.spec.check(m, this.params, m.now + this.gapUs);
  }

  run(m: SimModel, draft: ScenarioDraft): void {
    m.now += this.gapUs;
    const s = this.spec.step(m, this.params);
    draft.add(s);
    this.ran = s;
  }

  /** The step this command added, once it has run. */
  get step(): DraftStep | undefined {
    return this.ran;
  }

  toString(): string {
    return this.ran !== undefined
      ? formatStepFlow(this.ran)
      : `${this.spec.name} after ${formatDuration(this.gapUs)} (not run)`;
  }

  // A fresh instance per run: `ran` belongs to the sequence that ran it.
  [fc.cloneMethod](): StepCommand<P> {
    return new StepCommand(this.spec, this.params, this.gapUs);
  }
}
