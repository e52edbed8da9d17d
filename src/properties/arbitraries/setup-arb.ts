/**
 * fast-check arbitraries for cluster configurations: member count, heartbeat and election timings,
 * network latency, checkpoint and persist switches, checkpoint interval, revoke rate, etcd profile and
 * bug switches. Every setup it yields is one the scenario parser accepts and etcd would start with.
 */
import fc from 'fast-check';
import { MICROS_PER_MS, MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { BugName } from '../../switches/bugs.js';
import type { FixName } from '../../switches/fixes.js';
import type { ProfileName } from '../../scenario/types.js';
import { DEFAULT_SCENARIO_CLUSTER, type RunSetup } from '../draft/run-setup.js';

export interface SetupConstraints {
  /** Member counts to choose from; default 1, 3 and 5 (3 most often). */
  readonly members?: readonly number[];
  /** Default v3.5 only: v3.4 natively has several of the bugs (C4, C5, E1, H2) the properties catch. */
  readonly profiles?: readonly ProfileName[];
  /** Bug switches every run has on. */
  readonly bugs?: readonly BugName[];
  /** Proposed fixes every run has on. */
  readonly fixes?: readonly FixName[];
  /** Fixed --experimental-enable-lease-checkpoint; undefined lets it vary. */
  readonly checkpoint?: boolean;
  /** Fixed --experimental-enable-lease-checkpoint-persist (only with checkpointing); undefined varies. */
  readonly persist?: boolean;
  /** Checkpoint intervals to choose from; default 2 s–10 s and 5 min with checkpointing, 5 min without. */
  readonly checkpointIntervalsUs?: readonly Micros[];
  /** Revoke rates to choose from (never 1: etcd divides by 3·rate/4); default 1000. */
  readonly revokeRates?: readonly number[];
  /** Let heartbeat and election timeout vary (50–150 ms, 10–20 heartbeats); default true. */
  readonly varyTimings?: boolean;
  /** Largest one-way latency, jitter and fsync delay; default 3 ms, 1 ms, 1 ms. */
  readonly maxLatencyUs?: Micros;
  readonly maxJitterUs?: Micros;
  readonly maxFsyncUs?: Micros;
}

const SHORT_INTERVALS: readonly Micros[] = [2, 3, 5, 10].map((s) => s * MICROS_PER_SECOND);
const FIVE_MINUTES = DEFAULT_SCENARIO_CLUSTER.checkpointIntervalUs;

export function setupArb(c: SetupConstraints = {}): fc.Arbitrary<RunSetup> {
  const members = c.members ?? [1, 3, 3, 3, 5];
  const timings =
    c.varyTimings === false
      ? fc.constant({
          heartbeatUs: DEFAULT_SCENARIO_CLUSTER.heartbeatUs,
          electionTimeoutUs: DEFAULT_SCENARIO_CLUSTER.electionTimeoutUs,
        })
      : fc
          .record({ hbMs: fc.constantFrom(50, 100, 100, 150), ticks: fc.constantFrom(10, 10, 15, 20) })
          .map(({ hbMs, ticks }) => ({
            heartbeatUs: hbMs * MICROS_PER_MS,
            electionTimeoutUs: hbMs * ticks * MICROS_PER_MS,
          }));
  const checkpointing = fc
    .constant(c.checkpoint)
    .chain((fixed) => (fixed === undefined ? fc.boolean() : fc.constant(fixed)));
  const lease = checkpointing.chain((on) =>
    fc.record({
      leaseCheckpoint: fc.constant(on),
      leaseCheckpointPersist: on
        ? c.persist === undefined
          ? fc.boolean()
          : fc.constant(c.persist)
        : fc.constant(false),
      checkpointIntervalUs: fc.constantFrom(
        ...(c.checkpointIntervalsUs ?? (on ? [...SHORT_INTERVALS, FIVE_MINUTES] : [FIVE_MINUTES])),
      ),
    }),
  );
  const network = fc.record({
    // At least half a millisecond: forwarding loops retry at network speed, and µs latencies make them spin.
    latencyUs: fc.integer({
      min: MICROS_PER_MS / 2,
      max: Math.max(MICROS_PER_MS / 2, c.maxLatencyUs ?? 3 * MICROS_PER_MS),
    }),
    jitterUs: fc.integer({ min: 0, max: c.maxJitterUs ?? MICROS_PER_MS }),
    fsyncUs: fc.integer({ min: 0, max: c.maxFsyncUs ?? MICROS_PER_MS }),
  });
  return fc
    .record({
      members: fc.constantFrom(...members),
      timings,
      lease,
      network,
      revokeRatePerSecond: fc.constantFrom(...(c.revokeRates ?? [1000])),
      profile: fc.constantFrom(...(c.profiles ?? (['v3.5'] as const))),
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    })
    .map(
      (r): RunSetup => ({
        profile: r.profile,
        seed: r.seed,
        bugs: [...(c.bugs ?? [])],
        ...((c.fixes ?? []).length > 0 ? { fixes: [...c.fixes!] } : {}),
        cluster: {
          ...DEFAULT_SCENARIO_CLUSTER,
          members: r.members,
          ...r.timings,
          ...r.lease,
          ...r.network,
          revokeRatePerSecond: r.revokeRatePerSecond,
        },
      }),
    );
}
