// The fault schedules of `check --app`: drawn from (seed, run) alone, consistent (no two faults on one
// target at once, every fault over before the run ends), written as scenario steps in time order, and
// shrunk only through strictly smaller candidates.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import {
  allSteps,
  drawSchedule,
  scenarioText,
  type Fault,
  type Schedule,
  shrinkCandidates,
  size,
} from '../../src/cli/app-check/schedule.js';

const OPTS = { apps: ['a', 'b'], members: ['n1', 'n2', 'n3'], durationUs: 10_000_000 };
const target = (f: Fault): string => (f.kind === 'pause-app' ? `app:${f.app}` : `member:${f.member}`);

describe('check --app schedules', () => {
  it('are the same for the same (seed, run) and differ between runs', () => {
    expect(drawSchedule(3, 7, OPTS)).toEqual(drawSchedule(3, 7, OPTS));
    const all = Array.from({ length: 20 }, (_, i) => JSON.stringify(drawSchedule(3, i, OPTS)));
    expect(new Set(all).size).toBeGreaterThan(15);
  });

  it('keep every fault inside the run and never overlap two faults on one target', () => {
    for (let i = 0; i < 200; i++) {
      const s = drawSchedule(11, i, OPTS);
      expect(s.faults.length).toBeGreaterThan(0);
      for (const f of s.faults) {
        expect(f.atUs).toBeGreaterThanOrEqual(1_000_000);
        expect(f.forUs).toBeGreaterThanOrEqual(500_000);
        expect(f.atUs + f.forUs).toBeLessThanOrEqual(s.durationUs - 500_000);
      }
      for (const [j, f] of s.faults.entries())
        for (const g of s.faults.slice(j + 1))
          if (target(f) === target(g)) expect(g.atUs > f.atUs + f.forUs || f.atUs > g.atUs + g.forUs).toBe(true);
      // A valid scenario: steps in time order, a crash restarted in time, app stalls as `pause: { app }`.
      const parsed = parseScenario(scenarioText('t', s), 't');
      expect(parsed.ok, JSON.stringify(parsed.ok ? '' : parsed.errors)).toBe(true);
    }
  });

  it('write app stalls and member faults as steps in time order', () => {
    const s: Schedule = {
      seed: 1,
      durationUs: 10_000_000,
      faults: [
        { kind: 'crash-member', member: 'n1', atUs: 2_000_000, forUs: 3_000_000 },
        { kind: 'pause-app', app: 'a', atUs: 3_000_000, forUs: 2_500_000 },
      ],
    };
    expect(allSteps(s)).toEqual([
      '  - at: 2s',
      '    crash: { member: n1 }',
      '  - at: 3s',
      '    pause: { app: a, for: 2500ms }',
      '  - at: 5s',
      '    restart: { member: n1 }',
    ]);
  });

  it('shrink through smaller candidates: fewer faults, shorter stalls, earlier or later starts', () => {
    const s: Schedule = {
      seed: 1,
      durationUs: 20_000_000,
      faults: [
        { kind: 'pause-member', member: 'n2', atUs: 2_000_000, forUs: 1_000_000 },
        { kind: 'pause-app', app: 'a', atUs: 6_000_000, forUs: 4_000_000 },
      ],
    };
    const c = shrinkCandidates(s);
    for (const x of c) expect(size(x)).toBeLessThan(size(s));
    const stall = (x: Schedule): Fault | undefined => x.faults.find((f) => f.kind === 'pause-app');
    expect(c.some((x) => x.faults.length === 1)).toBe(true);
    expect(c.some((x) => x.durationUs === 12_000_000)).toBe(true);
    expect(c.some((x) => stall(x)?.forUs === 2_000_000 && stall(x)?.atUs === 6_000_000)).toBe(true);
    expect(c.some((x) => stall(x)?.forUs === 2_000_000 && stall(x)?.atUs === 8_000_000)).toBe(true);
    expect(c.some((x) => stall(x)?.atUs === 3_500_000 && stall(x)?.forUs === 4_000_000)).toBe(true);
    expect(new Set(c.map((x) => JSON.stringify(x))).size).toBe(c.length);
  });
});
