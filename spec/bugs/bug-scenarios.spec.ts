// Historical etcd lease bugs as scenario pairs (scenarios/bugs/): the .buggy file reproduces the bug and
// the .fixed file the fix, both with every expect passing; they run the same steps; and swapping their
// settings makes the expects fail, so each pair's assertions really tell the bug from the fix.
import { describe, expect, it } from 'vitest';
import { BUGS, BUG_NAMES, isBugName, type BugName } from '../../src/switches/bugs.js';
import type { RunResult } from '../../src/scenario/replay/runner.js';
import {
  bugFiles,
  bugScenarios,
  failures,
  nonExpectSteps,
  parseBugFile,
  run,
  stepsWithoutPositions,
  withSettings,
} from './bug-library.js';

/**
 * Pairs whose bug no expect form can show: the spec looks at the effect itself. `sees` is true when
 * the bug's effect is present in a run; `onV35` is a switch that must show the same effect on v3.5.
 */
const OBSERVED: Record<
  string,
  { readonly why: string; readonly sees: (r: RunResult) => boolean; readonly onV35?: BugName }
> = {
  'd1-follower-expiry-queue-leak': {
    why: "no expect form shows a member's expiry queue",
    sees: (r) =>
      r.cluster!.names.some((n) => {
        const s = r.cluster!.server(n);
        return s !== undefined && !s.lessor.isPrimary() && s.lessor.inspect().notifier.length > 0;
      }),
  },
  'c5-ttl-during-leader-change': {
    why: 'no expect form asserts an error reply (ErrLeaderChanged), and the expect evaluator ignores the switch',
    sees: (r) =>
      r.trace.events.some((e) => e.kind === 'ctl-ok' && e.fields?.op === 'timetolive' && e.fields.ttl === 9223372036),
    onV35: 'ttl-on-demoted-lessor',
  },
};

const sets = bugScenarios();

describe('bug scenario files', () => {
  it('are named <base>.<variant>.yaml, and the scenario name is <base>-<variant>', () => {
    expect(bugFiles.length).toBeGreaterThan(0);
    for (const f of bugFiles) expect(parseBugFile(f).name, f.file).toBe(`${f.base}-${f.variant}`);
  });

  it.each(bugFiles.map((f) => [f.file, f] as const))('%s parses, replays, and every expect passes', (_, f) => {
    const r = run(parseBugFile(f));
    expect(r.setupError).toBeUndefined();
    expect(r.assertions.length).toBeGreaterThan(0);
    expect(failures(r)).toEqual([]);
  });

  it('cover every bug switch: each is on in some .buggy file or reproduced on v3.5 by an observed pair', () => {
    const used = new Set<string>(sets.flatMap((s) => s.buggy.bugs));
    for (const o of Object.values(OBSERVED)) if (o.onV35 !== undefined) used.add(o.onV35);
    expect(BUG_NAMES.filter((b) => !used.has(b))).toEqual([]);
  });
});

describe.each(sets.map((s) => [s.base, s] as const))('%s', (base, s) => {
  const observed = OBSERVED[base];

  it('describes the bug: catalogue entry, etcd issues, and every link of its switches', () => {
    const id = base.split('-')[0]!.toUpperCase();
    for (const sc of [s.buggy, s.fixed, ...s.others.values()]) {
      expect(sc.description, sc.file).toContain('Catalogue');
      expect(sc.description, sc.file).toContain(id);
      expect(sc.description, sc.file).toMatch(/etcd-io\/etcd#\d+/);
    }
    for (const b of s.buggy.bugs) {
      expect(isBugName(b), b).toBe(true);
      for (const link of BUGS[b as BugName].links)
        expect(s.buggy.description, `${s.buggy.file} cites ${link}`).toContain(link);
    }
  });

  it('buggy and fixed run the same steps, differing only in profile, cluster or bug switches', () => {
    expect(stepsWithoutPositions(nonExpectSteps(s.fixed))).toEqual(stepsWithoutPositions(nonExpectSteps(s.buggy)));
    expect([s.fixed.seed, s.fixed.durationUs]).toEqual([s.buggy.seed, s.buggy.durationUs]);
    const settings = (x: typeof s.buggy): string => JSON.stringify([x.profile, x.cluster, x.bugs]);
    expect(settings(s.fixed)).not.toBe(settings(s.buggy));
  });

  if (s.others.size > 0) {
    it('its other variants run the buggy steps, expects included', () => {
      for (const o of s.others.values()) {
        expect(stepsWithoutPositions(o.steps), o.file).toEqual(stepsWithoutPositions(s.buggy.steps));
        expect([o.seed, o.durationUs], o.file).toEqual([s.buggy.seed, s.buggy.durationUs]);
      }
    });
  }

  if (observed === undefined) {
    it("the expects discriminate: each file fails under the other's settings", () => {
      expect(failures(run(withSettings(s.buggy, s.fixed))), `${s.buggy.file} with the fixed settings`).not.toEqual([]);
      expect(failures(run(withSettings(s.fixed, s.buggy))), `${s.fixed.file} with the buggy settings`).not.toEqual([]);
    });
  } else {
    it(`shows the effect outside the expects, because ${observed.why}`, () => {
      const sees = observed.sees;
      expect(sees(run(s.buggy)), 'buggy').toBe(true);
      expect(sees(run(s.fixed)), 'fixed').toBe(false);
      expect(sees(run(withSettings(s.buggy, s.fixed))), 'buggy steps, fixed settings').toBe(false);
      expect(sees(run(withSettings(s.fixed, s.buggy))), 'fixed steps, buggy settings').toBe(true);
      const sw = observed.onV35;
      if (sw !== undefined)
        expect(sees(run({ ...s.fixed, profile: 'v3.5', bugs: [sw] })), `v3.5 with ${sw}`).toBe(true);
    });
  }

  if (s.buggy.bugs.length > 1) {
    it('each switch alone breaks the fixed file', () => {
      for (const b of s.buggy.bugs)
        expect(failures(run({ ...s.fixed, bugs: [b] })), `${s.fixed.file} with ${b}`).not.toEqual([]);
    });
  }
});
