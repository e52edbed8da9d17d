/**
 * The cluster `serve` runs without FILE, as a scenario: 3 members with etcd 3.4's behaviour (the API the real
 * clients speak).
 */
import { BUG_NAMES } from '../switches/bugs.js';
import { parseScenario } from '../scenario/parse.js';
import type { Scenario } from '../scenario/types.js';

const TEXT = 'name: serve\nprofile: v3.4\nsteps: []\n';
export const DEFAULT_CLUSTER_FILE = '(serve default cluster)';

/** The default cluster, running until `durationUs` (until stopped when absent). */
export function defaultCluster(durationUs = Number.POSITIVE_INFINITY): Scenario {
  const p = parseScenario(TEXT, DEFAULT_CLUSTER_FILE, { knownBugs: BUG_NAMES });
  if (!p.ok) throw new Error('serve: the default cluster does not parse');
  return { ...p.scenario, durationUs };
}
