/**
 * Pairs what the simulation and real etcd did: assertions by step, lease events by (kind, subject) in
 * order of occurrence. Each pair gets its time difference (real − simulated) against the tolerance for
 * its kind, and whether the values they carried (TTL, revision, count) agree.
 */
import type { Micros } from '../clock/time.js';
import type { ExpectedDifference } from '../scenario/types.js';
import type { AssertionResult } from '../scenario/replay/runner.js';
import type { Observed } from './observed.js';
import type { RealAssertionResult } from './real-replay.js';
import { toleranceFor, TTL_VALUE_SLACK_SECONDS, type Tolerance } from './tolerances.js';

export interface AssertionPair {
  readonly line: number;
  readonly atUs: Micros;
  readonly text: string;
  readonly sim: { readonly pass: boolean; readonly got: string } | undefined;
  readonly real: { readonly pass: boolean; readonly got: string; readonly lateUs: Micros } | undefined;
  readonly agree: boolean;
}

export interface EventPair {
  readonly kind: Observed['kind'];
  readonly subject: string;
  /** 1 for the first such event, 2 for the second … */
  readonly nth: number;
  readonly sim: Observed | undefined;
  readonly real: Observed | undefined;
  readonly deltaUs: Micros | undefined;
  readonly tolerance: Tolerance;
  readonly valuesAgree: boolean;
  /** Both happened, within tolerance, with agreeing values. */
  readonly within: boolean;
}

export function pairAssertions(sim: readonly AssertionResult[], real: readonly RealAssertionResult[]): AssertionPair[] {
  const realByStep = new Map(real.map((r) => [r.step, r]));
  const simByStep = new Map(sim.map((r) => [r.step, r]));
  const steps = [...new Set([...sim.map((a) => a.step), ...real.map((a) => a.step)])].sort(
    (a, b) => a.atUs - b.atUs || a.pos.line - b.pos.line,
  );
  return steps.map((step) => {
    const s = simByStep.get(step);
    const r = realByStep.get(step);
    return {
      line: step.pos.line,
      atUs: step.atUs,
      text: s?.text ?? r!.text,
      sim: s && { pass: s.passed, got: s.got },
      real: r && { pass: r.pass, got: r.got, lateUs: r.lateUs },
      agree: s !== undefined && r !== undefined && s.passed === r.pass,
    };
  });
}

function valuesAgree(kind: Observed['kind'], a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return kind === 'ttl' ? Math.abs(a - b) <= TTL_VALUE_SLACK_SECONDS : a === b;
}

export function pairEvents(sim: readonly Observed[], real: readonly Observed[]): EventPair[] {
  const groups = new Map<string, { sim: Observed[]; real: Observed[] }>();
  const group = (o: Observed) => {
    const k = `${o.kind}\u0000${o.subject}`;
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = { sim: [], real: [] }));
    return g;
  };
  for (const o of sim) group(o).sim.push(o);
  for (const o of real) group(o).real.push(o);
  const out: EventPair[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < Math.max(g.sim.length, g.real.length); i++) {
      const s = g.sim[i];
      const r = g.real[i];
      const any = (s ?? r)!;
      // The simulation knows why a key was deleted (its trace shows the expiry); real etcd's watch does not.
      const tolerance = toleranceFor(any.kind, s?.cause, any.bulk === true);
      const deltaUs = s !== undefined && r !== undefined ? r.tUs - s.tUs : undefined;
      const agree = valuesAgree(any.kind, s?.value, r?.value);
      out.push({
        kind: any.kind,
        subject: any.subject,
        nth: i + 1,
        sim: s,
        real: r,
        deltaUs,
        tolerance,
        valuesAgree: agree,
        within: deltaUs !== undefined && Math.abs(deltaUs) <= tolerance.us && agree,
      });
    }
  }
  return out.sort((a, b) => (a.sim ?? a.real)!.tUs - (b.sim ?? b.real)!.tUs);
}

export interface SortedDifferences {
  readonly expected: ReadonlyArray<{ readonly event: EventPair; readonly difference: ExpectedDifference }>;
  readonly unexpected: readonly EventPair[];
  readonly unmatched: readonly ExpectedDifference[];
}

/**
 * Splits the differing events into those a declaration covers (same kind and subject, and the same
 * position when it names one; the first such declaration wins) and the rest, and lists the declarations
 * that covered nothing.
 */
export function sortDifferences(
  outside: readonly EventPair[],
  declared: readonly ExpectedDifference[],
): SortedDifferences {
  const expected: Array<{ event: EventPair; difference: ExpectedDifference }> = [];
  const unexpected: EventPair[] = [];
  for (const event of outside) {
    const difference = declared.find(
      (d) => d.kind === event.kind && d.subject === event.subject && (d.nth === undefined || d.nth === event.nth),
    );
    if (difference === undefined) unexpected.push(event);
    else expected.push({ event, difference });
  }
  return { expected, unexpected, unmatched: declared.filter((d) => !expected.some((x) => x.difference === d)) };
}
