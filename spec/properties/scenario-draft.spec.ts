// A generated run's scenario file parses back to exactly the Scenario the property run replays, so
// `lessor-sim run FILE` replays the same run (same trace, byte for byte).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { draftRun, draftScenario, renderScenario, runArb } from '../../src/properties/index.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import { fcParams } from '../support/fc.js';

const layout = {
  name: 'round-trip',
  file: 'round-trip.yaml',
  header: ['a comment above name:'],
  comments: new Map([[2, ['before the third step']]]),
};
const arb = runArb({
  setup: { profiles: ['v3.4', 'v3.5'] },
  workload: { grantMany: { min: 1, max: 3, maxSpreadUs: 500_000 }, weights: { lock: 1, unlock: 1, 'fenced-write': 1 } },
});

/** Structural equality without the undefined-valued keys a spread may leave. */
const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));

describe('scenario drafts', () => {
  it('render to files that parse back to the same scenario, positions included', () => {
    fc.assert(
      fc.property(arb, (run) => {
        const d = draftRun(run);
        const text = renderScenario(run.setup, d.steps, d.durationUs, layout);
        const parsed = parseScenario(text, layout.file, { knownBugs: BUG_NAMES });
        if (!parsed.ok)
          throw new Error(`${parsed.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('\n')}\n${text}`);
        expect(plain(parsed.scenario)).toEqual(plain(draftScenario(run.setup, d.steps, d.durationUs, layout)));
      }),
      fcParams(60),
    );
  });

  it('replay from the file with the same trace as from the drafted scenario', () => {
    fc.assert(
      fc.property(arb, (run) => {
        const d = draftRun(run);
        const parsed = parseScenario(renderScenario(run.setup, d.steps, d.durationUs, layout), layout.file);
        if (!parsed.ok) throw new Error('does not parse');
        expect(runScenario(parsed.scenario).trace.hash()).toBe(
          runScenario(draftScenario(run.setup, d.steps, d.durationUs, layout)).trace.hash(),
        );
      }),
      fcParams(15),
    );
  });

  it('run for the tail after the last action ends, not after the last step starts', () => {
    const [run] = fc.sample(runArb({ faults: { weights: { 'stall-raft': 10 } }, tailUs: 3_000_000 }), {
      seed: 3,
      numRuns: 1,
    });
    const d = draftRun(run!);
    const ends = d.steps.map((s) =>
      s.kind === 'pause' || s.kind === 'stall'
        ? s.atUs + (s.forUs ?? 0)
        : s.kind === 'grant-many'
          ? s.atUs + s.spreadUs
          : s.atUs,
    );
    expect(d.durationUs).toBe(Math.max(...ends) + 3_000_000);
  });
});
