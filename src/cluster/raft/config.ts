import { MICROS_PER_MS, type Micros } from '../../clock/time.js';

/** The knobs of one member's raft, with etcd's defaults. */
export interface RaftConfig {
  /** etcd `--heartbeat-interval` (TickMs): one raft tick; the leader heartbeats every tick. */
  readonly heartbeatMs: number;
  /** etcd `--election-timeout`; ElectionTicks = electionMs / heartbeatMs, truncated. */
  readonly electionMs: number;
  /** etcd `--pre-vote` (raft.Config.PreVote); off by default in 3.4 and 3.5. */
  readonly preVote: boolean;
  /** raft.Config.CheckQuorum; etcd always turns it on. */
  readonly checkQuorum: boolean;
  /** Time for the WAL write + fsync that makes entries and term/vote durable. */
  readonly fsyncUs: Micros;
}

export const defaultRaftConfig: RaftConfig = {
  heartbeatMs: 100,
  electionMs: 1000,
  preVote: false,
  checkQuorum: true,
  fsyncUs: 0,
};

/** A config with defaults filled in and the derived tick figures, checked the way etcd checks them. */
export interface ResolvedRaftConfig extends RaftConfig {
  readonly tickUs: Micros;
  readonly electionTicks: number;
}

export function resolveRaftConfig(c: Partial<RaftConfig>): ResolvedRaftConfig {
  const r = { ...defaultRaftConfig, ...c };
  if (!Number.isInteger(r.heartbeatMs) || r.heartbeatMs <= 0)
    throw new RangeError(`raft: heartbeatMs must be a positive integer, got ${r.heartbeatMs}`);
  const electionTicks = Math.trunc(r.electionMs / r.heartbeatMs);
  // raft.Config.validate: ElectionTick must be greater than HeartbeatTick (1).
  if (electionTicks <= 1)
    throw new RangeError(`raft: electionMs (${r.electionMs}) must be more than one heartbeat (${r.heartbeatMs})`);
  if (!Number.isInteger(r.fsyncUs) || r.fsyncUs < 0)
    throw new RangeError(`raft: fsyncUs must be a non-negative integer, got ${r.fsyncUs}`);
  return { ...r, tickUs: r.heartbeatMs * MICROS_PER_MS, electionTicks };
}
