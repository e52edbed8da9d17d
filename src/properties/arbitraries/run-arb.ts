/**
 * A whole generated run: a cluster setup and a sequence of model-based commands (fc.commands), so
 * fast-check shrinks a failing run by dropping and simplifying steps.
 */
import fc from 'fast-check';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { RunSetup } from '../draft/run-setup.js';
import { weighted, type LeaseCommand, type WeightedCommand } from './command-arb.js';
import { faultCommands, type FaultConstraints } from './fault-arb.js';
import { setupArb, type SetupConstraints } from './setup-arb.js';
import { workloadCommands, type WorkloadConstraints } from './workload-arb.js';

export interface GeneratedRun {
  readonly setup: RunSetup;
  readonly commands: Iterable<LeaseCommand>;
  /** How long the run goes on after its last step's last action (a timed pause or stall ends later). */
  readonly tailUs: Micros;
}

export interface RunConstraints {
  readonly setup?: SetupConstraints | fc.Arbitrary<RunSetup>;
  readonly workload?: WorkloadConstraints;
  /** false: no faults at all. */
  readonly faults?: FaultConstraints | false;
  /** Replaces the workload and fault commands altogether (a targeted family). */
  readonly commands?: readonly WeightedCommand[];
  /** Most commands per run; default 50. */
  readonly maxCommands?: number;
  /** Default 8 s: long enough for a revoke retried after the default 7 s interval to land. */
  readonly tailUs?: Micros;
}

export function runArb(c: RunConstraints = {}): fc.Arbitrary<GeneratedRun> {
  const setup = c.setup instanceof fc.Arbitrary ? c.setup : setupArb(c.setup);
  const entries = c.commands ?? [
    ...workloadCommands(c.workload),
    ...(c.faults === false ? [] : faultCommands(c.faults ?? {})),
  ];
  const commands = fc.commands([weighted(entries)], { maxCommands: c.maxCommands ?? 50, size: 'max' });
  const tailUs = c.tailUs ?? 8 * MICROS_PER_SECOND;
  return fc.record({ setup, commands }).map(({ setup: s, commands: cmds }) => ({ setup: s, commands: cmds, tailUs }));
}
