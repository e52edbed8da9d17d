import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../../src/switches/bugs.js';
import { formatError, parseScenario } from '../../../src/scenario/parse.js';
import { runScenario } from '../../../src/scenario/replay/runner.js';
import type { ProfileName, Scenario } from '../../../src/scenario/types.js';
import { restatedSuite } from '../restated.js';
import { V3_LEASE } from './index.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
restatedSuite(dir, V3_LEASE);

function load(file: string): Scenario {
  const p = parseScenario(readFileSync(join(dir, file), 'utf8'), file, { knownBugs: BUG_NAMES });
  if (!p.ok) throw new Error(p.errors.map(formatError).join('\n'));
  return p.scenario;
}

const failed = (s: Scenario, profile: ProfileName): number[] =>
  runScenario({ ...s, profile })
    .assertions.filter((a) => !a.passed)
    .map((a) => a.step.pos.line);

describe('the restated v3_lease tests fail where etcd had the bug they guard against', () => {
  it.each([
    ['lease-checkpoint-two-changes.yaml', 'no-checkpoint-schedule-on-promote'],
    ['lease-checkpoint-persist.yaml', 'checkpoints-not-persisted'],
    ['lease-renew-stress-with-cluster-client.yaml', 'renew-without-apply-wait'],
    ['lease-time-to-live-with-leader-changed-normal.yaml', 'ttl-on-demoted-lessor'],
    ['lease-time-to-live-with-leader-changed-forward.yaml', 'ttl-on-demoted-lessor'],
  ])('%s with %s', (file, bug) => {
    const s = load(file);
    expect(failed(s, 'v3.5')).toEqual([]);
    expect(failed({ ...s, bugs: [bug] }, 'v3.5').length).toBeGreaterThan(0);
  });

  it('3.4 keeps a checkpoint across a restart unless a snapshot saved the index past it (SnapshotCount 5)', () => {
    const s = load('lease-checkpoint-restart-reset.yaml');
    const noSnapshot = { ...s, cluster: { ...s.cluster, snapshotCount: 100_000 } };
    expect(failed(s, 'v3.4')).toEqual([]);
    expect(failed(noSnapshot, 'v3.4').length).toBe(1); // the TimeToLive answer: 289 s, not over 298 s
    expect(failed(noSnapshot, 'v3.5')).toEqual([]);
  });
});
