/**
 * Restated etcd tests: each folder under spec/etcd/ holds one etcd test file restated as scenarios, and an
 * index (index.ts) that lists every test function of that file with the scenario that restates it, the
 * profiles it applies to, or the reason it cannot be expressed. `restatedSuite` checks the index against the
 * folder and replays every scenario in each of its profiles, requiring every expect to pass.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { formatError, parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { ProfileName, Scenario } from '../../src/scenario/types.js';

/** One test function of the etcd file. */
export type RestatedTest =
  | { readonly test: string; readonly file: string; readonly profiles: readonly ProfileName[] }
  | { readonly test: string; readonly reason: string };

export interface RestatedFile {
  /** The etcd file restated, with the etcd ref it was read at, e.g. `tests/integration/v3_lease_test.go@v3.5.17`. */
  readonly source: string;
  readonly tests: readonly RestatedTest[];
}

function load(dir: string, file: string): Scenario {
  const path = join(dir, file);
  const p = parseScenario(readFileSync(path, 'utf8'), relative(process.cwd(), path), { knownBugs: BUG_NAMES });
  if (!p.ok) throw new Error(`${file} does not parse:\n${p.errors.map(formatError).join('\n')}`);
  return p.scenario;
}

/** Registers the suite of one restated etcd file; `dir` is the folder of its scenarios. */
export function restatedSuite(dir: string, index: RestatedFile): void {
  const abs = resolve(dir);
  const yamls = readdirSync(abs)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  describe(index.source, () => {
    it('lists each test function once, and every scenario of the folder', () => {
      const names = index.tests.map((t) => t.test);
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names).size).toBe(names.length);
      const listed = index.tests.flatMap((t) => ('file' in t ? [t.file] : []));
      expect([...new Set(listed)].sort()).toEqual(yamls);
      for (const t of index.tests) {
        if ('reason' in t) expect(t.reason.length, t.test).toBeGreaterThan(10);
        else expect(t.profiles.length, t.test).toBeGreaterThan(0);
      }
    });
    const cases = index.tests.flatMap((t) =>
      'file' in t ? t.profiles.map((profile) => [t.test, profile, t.file] as const) : [],
    );
    it.each(cases)('%s on %s (%s): every expect passes', (_test, profile, file) => {
      const r = runScenario({ ...load(abs, file), profile });
      expect(r.setupError).toBeUndefined();
      expect(r.assertions.length).toBeGreaterThan(0);
      expect(
        r.assertions.filter((a) => !a.passed).map((a) => `line ${a.step.pos.line}: ${a.text} — got ${a.got}`),
      ).toEqual([]);
    });
  });
}
