// The wall-clock monitor skips its calm replay when no wall clock a `clock` step moved is read: these
// tests pin down which jumps are read, and check on generated runs that a jump nothing reads leaves the
// run exactly as it is without the jump (every trace line but the steps and the jumps themselves).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftRun, draftScenario, runArb } from '../../src/properties/index.js';
import { wallClockRead, wallClockReadFrom } from '../../src/properties/monitors/wall-clock-independence.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { Scenario } from '../../src/scenario/types.js';
import { Trace, formatEvent } from '../../src/trace/trace.js';
import { fcParams } from '../support/fc.js';
import { scenario } from './support.js';

const read = (head: readonly string[], steps: readonly string[]): boolean => {
  const s = scenario(head, steps);
  return wallClockRead(s, s.profile);
};

const JUMP = '{ at: 1s, clock: { member: n2, jump: 30s } }';

describe('which wall-clock jumps are read', () => {
  it('none without a clock step, and none for a 3.5 member that never boots again', () => {
    expect(read(['profile: v3.5'], ['{ at: 1s, crash: { member: n2 } }'])).toBe(false);
    expect(read(['profile: v3.5'], [JUMP, '{ at: 2s, crash: { member: n2 } }'])).toBe(false);
    expect(read(['profile: v3.5'], ['{ at: 0s, restart: { member: n2 } }', JUMP])).toBe(false);
    expect(read(['profile: v3.5'], [JUMP, '{ at: 2s, restart: { member: n3 } }'])).toBe(false);
  });

  it('a 3.4 lessor (or bug E1) keys its expiry heap on it', () => {
    expect(read(['profile: v3.4'], [JUMP])).toBe(true);
    expect(read(['profile: v3.5', 'bugs: [expiry-queue-uses-wall-clock]'], [JUMP])).toBe(true);
  });

  it('a member booting after its jump starts its IDs from it; a client jump is read by holders', () => {
    expect(read(['profile: v3.5'], [JUMP, '{ at: 5s, restart: { member: n2 } }'])).toBe(true);
    expect(read(['profile: v3.5'], ['{ at: 1s, clock: { client: c1, jump: -5s } }'])).toBe(true);
  });

  it('from the jump itself, or from the first boot after a jump when only boots read it', () => {
    const from = (head: readonly string[], steps: readonly string[]): number => {
      const s = scenario(head, steps);
      return wallClockReadFrom(s, s.profile);
    };
    const boots = [
      '{ at: 0s, restart: { member: n2 } }',
      JUMP,
      '{ at: 3s, clock: { member: n3, jump: 5s } }',
      '{ at: 5s, restart: { member: n3 } }',
      '{ at: 7s, restart: { member: n2 } }',
    ];
    expect(from(['profile: v3.5'], boots)).toBe(5_000_000);
    expect(from(['profile: v3.4'], boots)).toBe(1_000_000);
    expect(from(['profile: v3.5'], [JUMP])).toBe(Infinity);
  });
});

/** Every trace line (before `untilUs`) but those of the steps and of the jumps, which differ by construction. */
function lines(s: Scenario, untilUs = Infinity): string[] {
  const r = runScenario(s, { trace: new Trace(true, true, false) });
  const own = new Set(['step', 'member-clock-jump', 'client-clock-jump']);
  return r.trace.events.filter((e) => !own.has(e.kind) && e.t < untilUs).map(formatEvent);
}

const calm = (s: Scenario): Scenario => ({ ...s, steps: s.steps.filter((st) => st.kind !== 'clock') });

it('a member that boots again after its jump and then leads grants other lease IDs', () => {
  const s = scenario(
    ['profile: v3.5'],
    [
      '{ at: 1s, clock: { member: n1, jump: 1h } }',
      '{ at: 2s, crash: { member: n1 } }',
      '{ at: 3s, restart: { member: n1 } }',
      '{ at: 6s, transfer-leader: { to: n1 } }',
      '{ at: 8s, grant: { lease: L1, ttl: 10 } }',
    ],
  );
  expect(wallClockRead(s, s.profile)).toBe(true);
  const grant = (ls: string[]): string | undefined => ls.find((l) => l.includes(' lease-grant '));
  expect(grant(lines(s))).toMatch(/^8\.\d+ n1 lease-grant /);
  expect(grant(lines(s))).not.toBe(grant(lines(calm(s))));
});

describe('a jump read from some instant on', () => {
  it('leaves the run as it is without it before that instant (generated runs)', () => {
    const runs = runArb({ faults: { weights: { clock: 6, crash: 2, restart: 6 } }, maxCommands: 25 });
    let compared = 0;
    fc.assert(
      fc.property(runs, (run) => {
        const d = draftRun(run);
        const s = draftScenario(run.setup, d.steps, d.durationUs, { name: 'w', file: 'w.yaml' });
        const from = wallClockReadFrom(s, s.profile);
        if (from === Infinity) return;
        compared++;
        expect(lines(s, from)).toEqual(lines(calm(s), from));
      }),
      fcParams(80),
    );
    expect(compared).toBeGreaterThan(2);
  });
});

describe('a jump nothing reads', () => {
  it('leaves the run as it is without it (generated runs with jumps, crashes and restarts)', () => {
    const runs = runArb({ faults: { weights: { clock: 4, crash: 2, restart: 2 } }, maxCommands: 25 });
    let compared = 0;
    fc.assert(
      fc.property(runs, (run) => {
        const d = draftRun(run);
        const s = draftScenario(run.setup, d.steps, d.durationUs, { name: 'w', file: 'w.yaml' });
        if (!s.steps.some((st) => st.kind === 'clock') || wallClockRead(s, s.profile)) return;
        compared++;
        expect(lines(s)).toEqual(lines(calm(s)));
      }),
      fcParams(60),
    );
    expect(compared).toBeGreaterThan(10);
  });
});
