/**
 * The property toolkit: fast-check arbitraries for clusters, workloads and fault schedules; model-based
 * commands that print as scenario steps; monitors for the bug catalogue's §K properties (docs/bugs.md);
 * counterexamples as scenario files; deterministic campaign runs. See docs/properties.md.
 */
export { setupArb, type SetupConstraints } from './arbitraries/setup-arb.js';
export { workloadCommands, type WorkloadCommand, type WorkloadConstraints } from './arbitraries/workload-arb.js';
export { faultCommands, type FaultCommand, type FaultConstraints } from './arbitraries/fault-arb.js';
export { gapArb, type GapConstraints } from './arbitraries/gap-arb.js';
export { commandArb, weighted, type LeaseCommand, type WeightedCommand } from './arbitraries/command-arb.js';
export { runArb, type GeneratedRun, type RunConstraints } from './arbitraries/run-arb.js';

export { StepCommand, type CommandSpec } from './commands/step-command.js';
export { newSimModel, type SimModel, type ModelLease } from './commands/sim-model.js';
export * as leaseCommands from './commands/lease-commands.js';
export * as faultCommandSpecs from './commands/fault-commands.js';
export * as lockCommands from './commands/lock-commands.js';

export {
  formatStep,
  formatStepFlow,
  formatAction,
  formatAssertion,
  type DraftStep,
  type DraftAssertion,
} from './draft/format-step.js';
export { DEFAULT_SCENARIO_CLUSTER, formatSetup, type RunSetup } from './draft/run-setup.js';
export { ScenarioDraft, draftScenario, renderScenario, type DraftLayout } from './draft/scenario-draft.js';

export { PROPERTIES, PROPERTY_NAMES, isPropertyName, type PropertyName } from './monitors/property-names.js';
export { MONITORS } from './monitors/all-monitors.js';
export { RunView } from './monitors/run-view.js';
export type { Monitor } from './monitors/monitor.js';
export { holderLives, type HolderLife, type HolderWrite } from './monitors/holder-lives.js';
export { holderReport, type HolderFigures, type HolderReport } from './monitors/holder-figures.js';
export { holderStopsBeforeRevokeWithin } from './monitors/holder-stops-before-revoke.js';
export type { ExpectCandidate, Violation } from './monitors/violation.js';

export { checkRun, checkScenario, type CheckOptions, type RunCheck, type CheckVerdict } from './check/check-run.js';
export { draftRun, type DraftedRun } from './check/draft-run.js';
export { counterexample, type Counterexample, type CounterexampleOptions } from './check/counterexample.js';
export {
  PropertyViolation,
  assertLeaseProperty,
  counterexampleOf,
  findCounterexample,
  leaseProperty,
  type LeasePropertyOptions,
} from './check/lease-property.js';
export { campaignRun, runSeedOf, type CampaignSpec, type RunOutcome } from './check/campaign.js';
export { classifyViolation, type Classification } from './check/classify.js';

export { BUG_FAMILIES, CHECKPOINTING_OFF, type BugFamily, type FamilyName } from './families/bug-families.js';
export { at, scripted, type Timed } from './families/scripted.js';
export {
  checkHolderRun,
  checkHolderRunAsync,
  holderRunArb,
  holderScenario,
  type HolderCampaignOptions,
  type HolderVerdict,
} from './holders/holder-campaign.js';

export * from './drift/index.js';
export * from './storm/index.js';
