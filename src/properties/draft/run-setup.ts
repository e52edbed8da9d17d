/**
 * Everything about a generated run except its steps: etcd profile, PRNG seed, cluster flags, bug
 * switches and how long to run. It prints as the head of a scenario file.
 */
import type { Micros } from '../../clock/time.js';
import type { BugName } from '../../switches/bugs.js';
import type { FixName } from '../../switches/fixes.js';
import { formatDuration } from '../../scenario/duration.js';
import { parseScenario } from '../../scenario/parse.js';
import type { ScenarioCluster, ProfileName } from '../../scenario/types.js';
import { flowMap, yamlDuration, yamlString, type YamlRaw, type YamlValue } from './yaml-text.js';

export interface RunSetup {
  readonly profile: ProfileName;
  /** The scenario's `seed:` (the cluster's PRNG). */
  readonly seed: number;
  readonly cluster: ScenarioCluster;
  readonly bugs: readonly BugName[];
  /** Proposed fixes switched on (src/switches/fixes.ts); none when absent. */
  readonly fixes?: readonly FixName[];
}

/**
 * The scenario parser's cluster defaults (scenario-format.md), so printed files only state what differs.
 * Read from the parser itself, so the two cannot drift apart.
 */
export const DEFAULT_SCENARIO_CLUSTER: ScenarioCluster = parserDefaults();

function parserDefaults(): ScenarioCluster {
  const p = parseScenario('name: defaults\nsteps: []\n', 'defaults');
  if (!p.ok)
    throw new Error(`the scenario parser rejects its own minimal file: ${p.errors.map((e) => e.message).join('; ')}`);
  return p.scenario.cluster;
}

const dur = (us: Micros): YamlRaw => yamlDuration(formatDuration(us));

/** Cluster fields in the order scenario-format.md lists them, with their YAML keys. */
const CLUSTER_KEYS: readonly (readonly [keyof ScenarioCluster, string, (v: never) => YamlValue])[] = [
  ['members', 'members', (v: number) => v],
  ['heartbeatUs', 'heartbeat', dur],
  ['electionTimeoutUs', 'election-timeout', dur],
  ['leaseCheckpoint', 'lease-checkpoint', (v: boolean) => v],
  ['leaseCheckpointPersist', 'lease-checkpoint-persist', (v: boolean) => v],
  ['checkpointIntervalUs', 'checkpoint-interval', dur],
  ['revokeRatePerSecond', 'revoke-rate', (v: number) => v],
  ['latencyUs', 'latency', dur],
  ['fsyncUs', 'fsync', dur],
  ['jitterUs', 'jitter', dur],
  ['lossProbability', 'loss', (v: number) => v],
  ['clusterVersion', 'cluster-version', (v: string) => v],
  ['preVote', 'pre-vote', (v: boolean) => v],
  ['expiredLeaseRetryUs', 'expired-lease-retry', dur],
  ['snapshotCount', 'snapshot-count', (v: number) => v],
  ['initialElectionTickAdvance', 'initial-election-tick-advance', (v: boolean) => v],
  ['resumeOrder', 'resume-order', (v: string) => v],
];

/** `{ members: 3, lease-checkpoint: true, ... }`: the fields that differ from the parser's defaults. */
export function formatCluster(c: ScenarioCluster): string {
  const entries: [string, YamlValue][] = [];
  for (const [prop, key, fmt] of CLUSTER_KEYS) {
    const v = c[prop];
    if (v === undefined || v === DEFAULT_SCENARIO_CLUSTER[prop]) continue;
    entries.push([key, (fmt as (x: unknown) => YamlValue)(v)]);
  }
  return flowMap(entries);
}

/** How many lines `formatSetup` prints for this setup (each field is one line; `fixes:` only when some are on). */
export function setupLineCount(setup: RunSetup): number {
  return (setup.fixes ?? []).length > 0 ? 7 : 6;
}

/** The lines before `steps:` of a scenario file for this setup. */
export function formatSetup(name: string, setup: RunSetup, durationUs: Micros): string[] {
  return [
    `name: ${yamlString(name)}`,
    `profile: ${setup.profile}`,
    `seed: ${setup.seed}`,
    `cluster: ${formatCluster(setup.cluster)}`,
    `bugs: [${setup.bugs.join(', ')}]`,
    ...((setup.fixes ?? []).length > 0 ? [`fixes: [${setup.fixes!.join(', ')}]`] : []),
    `duration: ${dur(durationUs).text}`,
  ];
}
