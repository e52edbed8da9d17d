/**
 * Scripted runs: a fixed sequence of steps at chosen times whose parameters come from arbitraries. A
 * targeted family uses them to aim a fault at the instant a historical bug needs (a crash between a
 * revoke's append and its commit), which a uniform command sequence would rarely hit.
 */
import type { Micros } from '../../clock/time.js';
import type { LeaseCommand } from '../arbitraries/command-arb.js';
import type { GeneratedRun } from '../arbitraries/run-arb.js';
import { StepCommand, type CommandSpec } from '../commands/step-command.js';
import type { RunSetup } from '../draft/run-setup.js';

export interface Timed {
  readonly atUs: Micros;
  make(gapUs: Micros): LeaseCommand;
}

/** `spec` with `params` at virtual time `atUs`. */
export function at<P>(atUs: Micros, spec: CommandSpec<P>, params: P): Timed {
  return { atUs: Math.max(0, Math.round(atUs)), make: (gap) => new StepCommand(spec, params, gap) };
}

/** The run: steps in time order (ties keep their order), each command's gap measured from the one before. */
export function scripted(setup: RunSetup, steps: readonly Timed[], tailUs: Micros): GeneratedRun {
  const sorted = steps.map((s, i) => [s, i] as const).sort(([a, i], [b, j]) => a.atUs - b.atUs || i - j);
  let prev = 0;
  const commands = sorted.map(([s]) => {
    const c = s.make(s.atUs - prev);
    prev = s.atUs;
    return c;
  });
  return { setup, commands, tailUs };
}
