/**
 * Campaign runs: run `index` of a campaign is generated from a seed derived from (campaign seed, index)
 * alone, so its verdict never depends on which worker, machine or shard ran it, nor on how many did.
 * A failing run is shrunk by fast-check and written as a verified counterexample file.
 */
import fc from 'fast-check';
import type { RunGuard } from '../../clock/run-guard.js';
import type { Micros } from '../../clock/time.js';
import type { BugName } from '../../switches/bugs.js';
import { runArb, type GeneratedRun, type RunConstraints } from '../arbitraries/run-arb.js';
import type { SetupConstraints } from '../arbitraries/setup-arb.js';
import type { PropertyName } from '../monitors/property-names.js';
import type { FixName } from '../../switches/fixes.js';
import { checkRun } from './check-run.js';
import { classifyViolation, type Classification } from './classify.js';
import { counterexampleOf } from './lease-property.js';

export interface CampaignSpec {
  readonly seed: number;
  readonly properties?: readonly PropertyName[];
  /** Bug switches every run has on. */
  readonly bugs?: readonly BugName[];
  /** Proposed fixes every run has on. */
  readonly fixes?: readonly FixName[];
  readonly constraints?: Omit<RunConstraints, 'setup'> & { readonly setup?: SetupConstraints };
  /** Shrink failing runs and write their counterexample (default true). */
  readonly shrink?: boolean;
  /** Each run's event budget (`check --max-events`). */
  readonly maxEvents?: number;
}

export interface RunOutcome {
  readonly index: number;
  readonly runSeed: number;
  readonly steps: number;
  readonly virtualUs: Micros;
  readonly violation?: {
    readonly property: PropertyName;
    readonly atUs: Micros;
    readonly message: string;
    readonly traceLine: number;
  };
  /** For a failing run: its finding class, from replaying the (shrunk, when shrinking) scenario with each fix on. */
  readonly classification?: Classification;
  /** The shrunk counterexample scenario file, for a failing run. */
  readonly counterexample?: string;
  /** A run ended by its event budget or the livelock guard: not judged, reported with its seed. */
  readonly stopped?: {
    readonly reason: string;
    readonly atUs: Micros;
    readonly events: number;
    readonly message: string;
  };
}

/** A 32-bit seed from (campaign seed, run index): a splitmix-style mix, stable across platforms. */
export function runSeedOf(campaignSeed: number, index: number): number {
  let h = (Math.imul(campaignSeed | 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function arbOf(spec: CampaignSpec): fc.Arbitrary<GeneratedRun> {
  const c = spec.constraints ?? {};
  return runArb({
    ...c,
    setup: {
      ...c.setup,
      bugs: [...(c.setup?.bugs ?? []), ...(spec.bugs ?? [])],
      fixes: [...(c.setup?.fixes ?? []), ...(spec.fixes ?? [])],
    },
  });
}

/**
 * Runs and judges run `index` of the campaign. `poll` is called between events of every replay of the
 * run (shrinking included) and may stop it, e.g. on a wall-clock timeout the caller keeps.
 */
export function campaignRun(spec: CampaignSpec, index: number, poll?: RunGuard['poll']): RunOutcome {
  const runSeed = runSeedOf(spec.seed, index);
  const arb = arbOf(spec);
  const guard: RunGuard = {
    ...(spec.maxEvents !== undefined ? { maxEvents: spec.maxEvents } : {}),
    ...(poll !== undefined ? { poll } : {}),
  };
  const opts = { ...(spec.properties !== undefined ? { properties: spec.properties } : {}), guard };
  const [run] = fc.sample(arb, { seed: runSeed, numRuns: 1 });
  const first = checkRun(run!, opts);
  const base = { index, runSeed, steps: first.drafted.steps.length, virtualUs: first.scenario.durationUs };
  if (first.stopped !== undefined) return { ...base, stopped: { ...first.stopped } };
  const v = first.violation;
  if (v === undefined) return base;
  const violation = { property: v.property, atUs: v.atUs, message: v.message, traceLine: v.traceLine };
  // The same seed makes fast-check generate the same first run, which fails, and shrink it.
  const shrink = (): GeneratedRun => {
    const out = fc.check(
      fc.property(arb, (r) => checkRun(r, opts).violation?.property !== v.property),
      { seed: runSeed, numRuns: 1 },
    );
    return out.failed && out.counterexample !== null ? out.counterexample[0] : run!;
  };
  if (spec.shrink === false) {
    // As generated, a run can hold a second instance a fix does not reach; the shrunk run shows the one
    // found. Shrinking is costly, so only a violation no fix removes as generated is shrunk to classify it.
    const asGenerated = classifyViolation(first.scenario, v.property);
    const classification =
      asGenerated.finding !== undefined
        ? asGenerated
        : classifyViolation(checkRun(shrink(), opts).scenario, v.property);
    return { ...base, violation, classification };
  }
  const shrunk = shrink();
  const cx = counterexampleOf(shrunk, [v.property], {
    name: `check-${spec.seed}-${index}-${v.property}`,
    origin: [
      `Found by: lessor-sim check --seed ${spec.seed} (run ${index}, run seed ${runSeed}); shrunk by fast-check.`,
    ],
  });
  const classification = classifyViolation(cx?.scenario ?? checkRun(shrunk, opts).scenario, v.property);
  return { ...base, violation, classification, ...(cx !== undefined ? { counterexample: cx.yaml } : {}) };
}
