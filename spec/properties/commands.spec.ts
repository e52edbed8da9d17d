// Model-based commands: what they let through, and how a shrunk sequence prints.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftRun, runArb, type GeneratedRun } from '../../src/properties/index.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { fcParams } from '../support/fc.js';

const arb = runArb({ setup: { members: [3] }, workload: { weights: { lock: 1, unlock: 1, 'fenced-write': 1 } } });

describe('model-based commands', () => {
  it('only generate steps the replay can act on', () => {
    fc.assert(
      fc.property(arb, (run) => {
        const { steps } = draftRun(run);
        const crashed = new Set<string>();
        const granted = new Set<string>();
        let last = 0;
        for (const s of steps) {
          expect(s.atUs).toBeGreaterThanOrEqual(last);
          last = s.atUs;
          if (s.kind === 'crash') {
            expect(crashed.has(s.member)).toBe(false);
            crashed.add(s.member);
          } else if (s.kind === 'restart') {
            expect(crashed.delete(s.member!)).toBe(true);
          } else if (s.kind === 'grant') granted.add(s.lease);
          else if (s.kind === 'grant-many') for (let k = 1; k <= s.count; k++) granted.add(`${s.prefix}${k}`);
          else if ('lease' in s && typeof s.lease === 'string') expect(granted.has(s.lease)).toBe(true);
          if ((s.kind === 'pause' || s.kind === 'stall') && s.member !== undefined)
            expect(crashed.has(s.member)).toBe(false);
        }
      }),
      fcParams(100),
    );
  });

  it("print a shrunk counterexample as the items of a scenario's steps list", () => {
    // A property that fails once a run both crashes and restarts a member: the shrunk sequence is those two steps.
    const out = fc.check(
      fc.property(arb, (run: GeneratedRun) => {
        const kinds = draftRun(run).steps.map((s) => s.kind);
        return !(kinds.includes('crash') && kinds.includes('restart'));
      }),
      fcParams(200),
    );
    expect(out.failed).toBe(true);
    const run = out.counterexample![0];
    const printed = String(run.commands).replace(/\s*\/\*replayPath=.*\*\/$/, '');
    const parsed = parseScenario(`name: shrunk\nsteps: [${printed}]\n`, 'shrunk.yaml');
    if (!parsed.ok) throw new Error(`not a steps list: ${printed}`);
    const kinds = parsed.scenario.steps.map((s) => s.kind);
    expect(kinds.filter((k) => k === 'crash' || k === 'restart')).toEqual(['crash', 'restart']);
    expect(kinds.length).toBeLessThanOrEqual(3);
    expect(parsed.scenario.steps.map((s) => s.atUs)).toEqual(draftRun(run).steps.map((s) => s.atUs));
  });
});
