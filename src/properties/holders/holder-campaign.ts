/**
 * Property campaigns over lock holders: two holders of one strategy compete for a lock while a generated
 * fault schedule runs (member and client pauses, leader moves, a member cut off and healed, jumps of the
 * holders' own clocks within a skew bound). Each run is a scenario file's text, so a failing run is
 * already a counterexample file.
 */
import type { FixName } from '../../switches/fixes.js';
import fc from 'fast-check';
import { MICROS_PER_MS, MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { parseScenario } from '../../scenario/parse.js';
import { runScenario, runScenarioAsync, type RunOptions, type RunResult } from '../../scenario/replay/runner.js';
import type { Scenario } from '../../scenario/types.js';
import { Trace } from '../../trace/trace.js';
import { holderReport, type HolderReport } from '../monitors/holder-figures.js';
import { holderStopsBeforeRevoke } from '../monitors/holder-stops-before-revoke.js';
import { earliest } from '../monitors/monitor.js';
import { noEarlyExpiry } from '../monitors/no-early-expiry.js';
import { noOverlap } from '../monitors/no-overlap.js';
import { noStaleWriteAccepted } from '../monitors/no-stale-write-accepted.js';
import { RunView } from '../monitors/run-view.js';
import type { Violation } from '../monitors/violation.js';

export interface HolderCampaignOptions {
  /** A built-in strategy or `user:<name>`; default `deadline`. */
  readonly strategy?: string;
  readonly ttlSeconds?: number;
  readonly marginUs?: Micros;
  /** Bound on each jump of a holder's own clock, either way; 0 for none. */
  readonly skewUs?: Micros;
  readonly profile?: 'v3.4' | 'v3.5';
  /** Most faults in one schedule; default 4. */
  readonly maxFaults?: number;
  /** Proposed fixes every run has on (docs/findings/): a finding no holder can outrun, switched off. */
  readonly fixes?: readonly FixName[];
}

const DURATION_S = 40;
const ms = (n: number): string => `${n}ms`;

/** A fault as timed steps (a partition brings its heal). */
type Timed = readonly (readonly [number, string])[];

const fault = (skewMs: number): fc.Arbitrary<Timed> => {
  const at = fc.integer({ min: 1000, max: 30_000 });
  const member = fc.constantFrom('n1', 'n2', 'n3');
  const client = fc.constantFrom('c1', 'c2');
  const arbs: fc.Arbitrary<Timed>[] = [
    fc
      .tuple(at, member, fc.integer({ min: 500, max: 12_000 }))
      .map(([t, m, d]) => [[t, `pause: { member: ${m}, for: ${ms(d)} }`] as const]),
    fc
      .tuple(at, client, fc.integer({ min: 500, max: 15_000 }))
      .map(([t, c, d]) => [[t, `pause: { client: ${c}, for: ${ms(d)} }`] as const]),
    fc.tuple(at, member).map(([t, m]) => [[t, `transfer-leader: { to: ${m} }`] as const]),
    fc.tuple(at, member, fc.integer({ min: 500, max: 10_000 })).map(([t, m, d]) => {
      const rest = ['n1', 'n2', 'n3'].filter((x) => x !== m).join(', ');
      return [[t, `partition: { groups: [[${m}], [${rest}]] }`] as const, [t + d, 'heal: {}'] as const];
    }),
  ];
  if (skewMs > 0)
    arbs.push(
      fc
        .tuple(at, client, fc.integer({ min: -skewMs, max: skewMs }))
        .map(([t, c, j]) => [[t, `clock: { client: ${c}, jump: ${ms(j)} }`] as const]),
    );
  return fc.oneof(...arbs);
};

/** One run's scenario text: two holders, then the fault schedule in time order. */
export function holderRunArb(o: HolderCampaignOptions = {}): fc.Arbitrary<string> {
  const strategy = o.strategy ?? 'deadline';
  const ttl = o.ttlSeconds ?? 9;
  const margin = o.marginUs ?? MICROS_PER_SECOND;
  const skewMs = Math.floor((o.skewUs ?? 0) / MICROS_PER_MS);
  const holder = (name: string, c: string, at: string) =>
    `  - at: ${at}\n    holder: { name: ${name}, strategy: ${strategy}, key: /locks/campaign, ` +
    `ttl: ${ttl}, client: ${c}, margin: ${ms(margin / MICROS_PER_MS)}, writes-per-second: 2 }`;
  return fc.array(fault(skewMs), { maxLength: o.maxFaults ?? 4 }).map((faults) =>
    [
      'name: holder-campaign-run',
      `profile: ${o.profile ?? 'v3.5'}`,
      ...(o.fixes !== undefined && o.fixes.length > 0 ? [`fixes: [${o.fixes.join(', ')}]`] : []),
      `duration: ${DURATION_S}s`,
      'steps:',
      holder('a', 'c1', '0s'),
      holder('b', 'c2', '300ms'),
      ...faults
        .flat()
        .sort((x, y) => x[0] - y[0])
        .map(([t, step]) => `  - at: ${ms(t)}\n    ${step}`),
      '',
    ].join('\n'),
  );
}

export interface HolderVerdict {
  readonly text: string;
  readonly result: RunResult;
  readonly report: HolderReport;
  /** The earliest break of holder-stops-before-revoke, no-overlap or no-stale-write-accepted. */
  readonly violation: Violation | undefined;
  /**
   * With a violation: the cluster's own no-early-expiry break (K1) in the same run, if any. A holder
   * cannot stop before a revoke that comes earlier than etcd's lease guarantee.
   */
  readonly earlyExpiry: Violation | undefined;
}

export function holderScenario(text: string, file = 'holder-campaign-run.yaml'): Scenario {
  const p = parseScenario(text, file);
  if (!p.ok)
    throw new Error(
      `holder campaign: generated an invalid scenario: ${p.errors
        .map((e) => `${e.line}:${e.col} ${e.message}`)
        .join('; ')}`,
    );
  return p.scenario;
}

function verdict(text: string, result: RunResult): HolderVerdict {
  const view = new RunView(result);
  const violation = earliest([holderStopsBeforeRevoke, noOverlap, noStaleWriteAccepted].map((m) => m.check(view)));
  return {
    text,
    result,
    report: holderReport(view),
    violation,
    earlyExpiry: violation === undefined ? undefined : noEarlyExpiry.check(view),
  };
}

/** Replays one generated run (built-in strategies) and checks the holder properties. */
export function checkHolderRun(text: string): HolderVerdict {
  return verdict(text, runScenario(holderScenario(text), { trace: new Trace(true, true, false) }));
}

/** The same for holders written in TypeScript (`strategy: user:<name>`). */
export async function checkHolderRunAsync(
  text: string,
  userHolders: NonNullable<RunOptions['userHolders']>,
): Promise<HolderVerdict> {
  return verdict(
    text,
    await runScenarioAsync(holderScenario(text), { trace: new Trace(true, true, false), userHolders }),
  );
}
