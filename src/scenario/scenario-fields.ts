/** The top-level and `cluster` tables of a scenario file, with etcd's defaults beside their names. */
import { ms, seconds, type Micros } from '../clock/time.js';
import { RESUME_ORDERS } from '../cluster/cluster.js';
import { DEFAULT_SNAPSHOT_COUNT } from '../cluster/server/config.js';
import { FIX_NAMES } from '../switches/fixes.js';
import { INVALID, type Codec } from './codec.js';
import { DEFAULT_MEMBERS, MAX_MEMBERS, type ParseContext } from './context.js';
import { bool, duration, int, list, object, oneOf, probability, text } from './codecs.js';
import { formatDuration } from './duration.js';
import { complete, def, defaultsOf, opt, req, type Decoded, type FieldsFor } from './fields.js';
import { quote } from './node.js';
import { steps } from './steps.js';
import { alertsSection } from './alerts-section.js';
import { didYouMean } from './suggest.js';
import {
  DIFF_EVENT_KINDS,
  PROFILE_NAMES,
  RACE_NAMES,
  type DeclaredRace,
  type ScenarioCluster,
  type ExpectedDifference,
  type Scenario,
} from './types.js';

const count = int(1, MAX_MEMBERS, `a member count from 1 to ${MAX_MEMBERS}`);

/** Decoding the member count also fixes which member names later fields may use. */
const memberCount: Codec<number> = {
  ...count,
  decode(node, ctx) {
    const n = count.decode(node, ctx);
    // On a bad count assume the largest, so member references do not pile spurious errors on the real one.
    ctx.members = n === INVALID ? MAX_MEMBERS : n;
    return n;
  },
};

/** etcd's limit on --election-timeout (embed/config.go maxElectionMs). */
const MAX_ELECTION_MS = 50_000;

const CLUSTER_FIELDS: FieldsFor<ScenarioCluster> = {
  members: def('members', memberCount, DEFAULT_MEMBERS, 'Number of members, named n1..nN; n1 is the first leader.'),
  heartbeatUs: def('heartbeat', duration({ positive: true }), ms(100), '--heartbeat-interval, whole milliseconds.'),
  electionTimeoutUs: def(
    'election-timeout',
    duration({ positive: true }),
    ms(1000),
    '--election-timeout, whole milliseconds, at least 5 heartbeats and at most 50s.',
  ),
  leaseCheckpoint: def('lease-checkpoint', bool, false, '--experimental-enable-lease-checkpoint.'),
  leaseCheckpointPersist: def(
    'lease-checkpoint-persist',
    bool,
    false,
    '--experimental-enable-lease-checkpoint-persist; etcd requires lease-checkpoint with it.',
  ),
  checkpointIntervalUs: def(
    'checkpoint-interval',
    duration({ positive: true }),
    seconds(300),
    'LessorConfig.CheckpointInterval.',
  ),
  revokeRatePerSecond: def(
    'revoke-rate',
    int(2, Number.MAX_SAFE_INTEGER, 'a whole number of leases per second, at least 2 (Promote divides by (3*rate)/4)'),
    1000,
    'Leases revoked per second at most (leaseRevokeRate); at least 2.',
  ),
  latencyUs: def('latency', duration(), ms(1), 'One-way peer and client network delay.'),
  fsyncUs: def('fsync', duration(), 0, 'Extension: extra delay before a member acknowledges an append.'),
  jitterUs: def('jitter', duration(), 0, 'Extension: uniform extra one-way delay, from 0 up to this.'),
  lossProbability: def('loss', probability, 0, 'Extension: probability in [0, 1) that a peer message is lost.'),
  clusterVersion: opt(
    'cluster-version',
    text('a cluster version such as 3.5.0 or 3.6.0', { pattern: /^\d+\.\d+\.\d+$/ }),
    "Extension: the cluster version (3.6.0 or later persists checkpoints); unset leaves the profile's own.",
  ),
  preVote: def('pre-vote', bool, false, 'Extension: raft pre-vote (--pre-vote).'),
  expiredLeaseRetryUs: opt(
    'expired-lease-retry',
    duration({ positive: true }),
    'Extension: LessorConfig.ExpiredLeasesRetryInterval; unset ' +
      "derives etcd's ReqTimeout(), 5s + 2 × election-timeout.",
  ),
  snapshotCount: def(
    'snapshot-count',
    int(1, Number.MAX_SAFE_INTEGER, 'a whole number of entries, at least 1'),
    DEFAULT_SNAPSHOT_COUNT,
    'Extension: --snapshot-count, applied entries between snapshots; a snapshot ' +
      'saves the consistent index, which in v3.4 bounds what a restart applies again.',
  ),
  initialElectionTickAdvance: def(
    'initial-election-tick-advance',
    bool,
    true,
    '--initial-election-tick-advance: a restarted member fast-forwards its election clock once more ' +
      'than one peer is active (a single member always does).',
  ),
  resumeOrder: def(
    'resume-order',
    oneOf(RESUME_ORDERS),
    'seeded',
    'Extension: what a member resumed from a pause does first: its held timers (timers-first), the ' +
      'network input that waited (input-first), or either, drawn per resume from the seed (seeded); ' +
      "Go's scheduler gives no order between a due ticker and a readable socket.",
  ),
};

/** etcd's own startup checks (embed/config.go Validate): a configuration etcd refuses is no scenario. */
function checkCluster(d: Decoded<ScenarioCluster>, ctx: ParseContext): boolean {
  const c = complete(d);
  if (c === INVALID) return false;
  const { posOf, pos } = d;
  const errors = ctx.errors.count;
  const at = (p: keyof ScenarioCluster) => posOf[p] ?? pos;
  const wholeMs = (us: Micros) => us % 1000 === 0;
  if (!wholeMs(c.heartbeatUs))
    ctx.error(at('heartbeatUs'), "heartbeat must be whole milliseconds, as etcd's --heartbeat-interval");
  if (!wholeMs(c.electionTimeoutUs))
    ctx.error(at('electionTimeoutUs'), "election-timeout must be whole milliseconds, as etcd's --election-timeout");
  if (c.electionTimeoutUs < 5 * c.heartbeatUs) {
    // Point at whichever of the two the file wrote; the election timeout when it wrote both.
    ctx.error(
      posOf.electionTimeoutUs ?? at('heartbeatUs'),
      `election-timeout ${formatDuration(c.electionTimeoutUs)} is less than 5 ` +
        `heartbeats (${formatDuration(5 * c.heartbeatUs)}); etcd refuses to start`,
    );
  }
  if (c.electionTimeoutUs > ms(MAX_ELECTION_MS)) {
    ctx.error(
      at('electionTimeoutUs'),
      `election-timeout ${formatDuration(c.electionTimeoutUs)} is longer than etcd's limit of ${MAX_ELECTION_MS}ms`,
    );
  }
  if (c.leaseCheckpointPersist && !c.leaseCheckpoint) {
    ctx.error(
      at('leaseCheckpointPersist'),
      'lease-checkpoint-persist requires lease-checkpoint: true (etcd refuses to start otherwise)',
    );
  }
  return ctx.errors.count === errors;
}

const cluster = object(CLUSTER_FIELDS, 'cluster', { check: checkCluster });

const bugText = text('a bug name');

/** A bug name, checked against the simulator's list when the caller gives one. */
const bugName: Codec<string> = {
  ...bugText,
  decode(node, ctx) {
    const name = bugText.decode(node, ctx);
    if (name === INVALID || ctx.knownBugs === undefined || ctx.knownBugs.includes(name)) return name;
    const known = ctx.knownBugs.length > 0 ? ctx.knownBugs.join(', ') : '(none)';
    ctx.error(node.pos, `unknown bug ${quote(name)}; known bugs: ${known}${didYouMean(name, ctx.knownBugs)}`);
    return INVALID;
  },
};

const DIFFERENCE_FIELDS: FieldsFor<Omit<ExpectedDifference, 'line'>> = {
  kind: req('kind', oneOf(DIFF_EVENT_KINDS), 'The kind of event, as `diff` prints it.'),
  subject: req(
    'subject',
    text('an event subject such as L1, /locks/a or "L1 (c1)"', { anyScalar: true }),
    "The event's subject, exactly as `diff` prints it.",
  ),
  nth: opt(
    'nth',
    int(1, Number.MAX_SAFE_INTEGER, 'a position from 1'),
    "Only the nth such event (diff's #n); every one when absent.",
  ),
  reason: req('reason', text('a reason'), 'Why the model and etcd 3.4.23 differ here; `diff` prints it.'),
};

const differenceFields = object(DIFFERENCE_FIELDS, 'expected difference');

/** One declared difference, remembering its line for `diff`'s report. */
const expectedDifference: Codec<ExpectedDifference> = {
  ...differenceFields,
  expected: 'an expected difference',
  decode(node, ctx) {
    const d = differenceFields.decode(node, ctx);
    return d === INVALID ? INVALID : { ...d, line: node.pos.line };
  },
};

const RACE_FIELDS: FieldsFor<Omit<DeclaredRace, 'line'>> = {
  race: req('race', oneOf(RACE_NAMES), 'The race: resume-order (cluster.resume-order).'),
  reason: req('reason', text('a reason'), 'How the outcome depends on it; `diff` prints it.'),
};

const raceFields = object(RACE_FIELDS, 'race');

const declaredRace: Codec<DeclaredRace> = {
  ...raceFields,
  expected: 'a race',
  decode(node, ctx) {
    const d = raceFields.decode(node, ctx);
    return d === INVALID ? INVALID : { ...d, line: node.pos.line };
  },
};

/** What the file states; parse.ts derives `durationUs` from `duration` and the steps. */
export type ScenarioFields = Omit<Scenario, 'file' | 'durationUs'> & { readonly durationUs?: Micros };

/** Order matters: `cluster` is decoded before `steps`, which refer to its members. */
export const TOP_LEVEL_FIELDS: FieldsFor<ScenarioFields> = {
  name: req('name', text('a scenario name'), 'Scenario name, unique in a library.'),
  description: opt('description', text('a description', { allowEmpty: true }), 'Free text, shown by `explain`.'),
  author: opt('author', text('an author'), 'Extension: who wrote the scenario.'),
  tags: def('tags', list(text('a tag'), { unique: true }), [], 'Extension: labels for finding scenarios in a library.'),
  profile: def('profile', oneOf(PROFILE_NAMES), 'v3.5', 'etcd behaviour profile: v3.4 (3.4.23) or v3.5 (3.5.33).'),
  seed: def(
    'seed',
    int(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer seed'),
    1,
    "PRNG seed; the CLI's --seed overrides it.",
  ),
  cluster: def('cluster', cluster, defaultsOf(CLUSTER_FIELDS), 'The simulated etcd cluster.'),
  bugs: def('bugs', list(bugName, { unique: true }), [], 'Names of historical etcd bugs to switch on.'),
  alerts: opt(
    'alerts',
    alertsSection,
    'Extension: Prometheus-style alerting rules evaluated on the simulated metrics (see docs/signals.md).',
  ),
  fixes: opt(
    'fixes',
    list(oneOf(FIX_NAMES), { unique: true }),
    'Extension: proposed fixes to switch on (the dual of bugs: ' +
      'how etcd would have to change to remove a finding class).',
  ),
  expectedDifferences: opt(
    'expected-differences',
    list(expectedDifference),
    'Extension: events `diff` may show outside tolerance or on one side ' +
      'only, each with its reason; any other such event makes `diff` disagree.',
  ),
  races: opt(
    'races',
    list(declaredRace),
    'Extension: races of etcd the outcome depends on; `diff` runs the simulation down each branch and ' +
      "agrees when etcd's outcome matches one of them, naming it.",
  ),
  steps: req('steps', steps, 'The timed steps, in time order.'),
  durationUs: opt(
    'duration',
    duration(),
    'Extension: virtual time to run until; not before the last step, ' +
      "at most 24h. Default: 1s after the last step's last action.",
  ),
};
