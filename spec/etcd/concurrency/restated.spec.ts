// etcd's concurrency tests restated as scenarios: one folder per etcd test file, each with its index.
// client/v3/concurrency@v3.5.33 has no tests of its own besides these examples (its example_*_test.go are
// links to the files under tests/integration), so the folders below cover it too.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../../src/switches/bugs.js';
import { parseScenario } from '../../../src/scenario/parse.js';
import { runScenario } from '../../../src/scenario/replay/runner.js';
import type { Scenario } from '../../../src/scenario/types.js';
import { restatedSuite } from '../restated.js';
import { ELECTION } from './election/index.js';
import { EXAMPLE_ELECTION } from './example-election/index.js';
import { EXAMPLE_MUTEX } from './example-mutex/index.js';
import { EXAMPLE_STM } from './example-stm/index.js';
import { MUTEX } from './mutex/index.js';
import { SESSION } from './session/index.js';
import { V3_LOCK } from './v3-lock/index.js';

const here = (folder: string): string => new URL(folder, import.meta.url).pathname;

restatedSuite(here('mutex'), MUTEX);
restatedSuite(here('example-mutex'), EXAMPLE_MUTEX);
restatedSuite(here('v3-lock'), V3_LOCK);
restatedSuite(here('session'), SESSION);
restatedSuite(here('election'), ELECTION);
restatedSuite(here('example-election'), EXAMPLE_ELECTION);
restatedSuite(here('example-stm'), EXAMPLE_STM);

describe('the restated lock tests can fail', () => {
  const load = (file: string): Scenario => {
    const p = parseScenario(readFileSync(here(file), 'utf8'), file, { knownBugs: BUG_NAMES });
    if (!p.ok) throw new Error(`${file} does not parse`);
    return p.scenario;
  };
  const failed = (s: Scenario): string[] =>
    runScenario(s)
      .assertions.filter((a) => !a.passed)
      .map((a) => a.text);

  it.each(['mutex/lock-session-expired.yaml', 'v3-lock/waits-on-current-holder.yaml'])(
    '%s fails when Lock skips its post-wait check (the 3.4 client, etcd-io/etcd#11456)',
    (file) => {
      const s = load(file);
      expect(failed(s)).toEqual([]);
      expect(failed({ ...s, bugs: ['lock-skips-post-wait-check'] })).toEqual(
        expect.arrayContaining([expect.stringContaining('ErrSessionExpired')]),
      );
    },
  );

  it('TestMutexTryLockSingleNode fails when a second locker blocks in Lock instead of trying', () => {
    const s = load('v3-lock/trylock-single-node.yaml');
    const blocking = s.steps.map((st) => (st.kind === 'trylock' ? { ...st, kind: 'lock' as const } : st));
    expect(failed({ ...s, steps: blocking })).toEqual(expect.arrayContaining([expect.stringContaining('ErrLocked')]));
  });
});
