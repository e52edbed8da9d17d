import { MICROS_PER_MS, MICROS_PER_SECOND, ceilDiv, type Micros } from '../clock/time.js';
import { InvalidArgumentError } from './errors.js';
import { resolveBehaviour, type Behaviour } from '../switches/behaviour.js';
import { NO_BUGS, type BugSet } from '../switches/bugs.js';
import { NO_FIXES, type FixSet } from '../switches/fixes.js';
import { V3_5, type Profile } from '../switches/profile.js';

// Package constants of server/lease/lessor.go (identical in 3.4.23 and 3.5.33).
export const MaxLeaseTTL = 9_000_000_000;
export const defaultLeaseRevokeRate = 1000;
export const leaseCheckpointRate = 1000;
export const maxLeaseCheckpointBatchSize = 1000;
export const defaultLeaseCheckpointIntervalUs: Micros = 5 * 60 * MICROS_PER_SECOND;
export const defaultExpiredLeaseRetryIntervalUs: Micros = 3 * MICROS_PER_SECOND;
export const runLoopPeriodUs: Micros = 500 * MICROS_PER_MS;
export const expiredChannelCapacity = 16;

/** LessorConfig: zero means "etcd's default" for the interval and rate fields, as in etcd. */
export interface LessorConfig {
  readonly minLeaseTTLSeconds: number;
  readonly checkpointIntervalUs: Micros;
  readonly expiredLeasesRetryIntervalUs: Micros;
  readonly leaseRevokeRate: number;
  readonly checkpointPersist: boolean;
  /** The cluster version ("3.5.0", "3.6.0"); undefined models etcd's nil version (not yet decided). */
  readonly clusterVersion: string | undefined;
  readonly profile: Profile;
  /** Historical bugs switched on (src/switches/bugs.ts). */
  readonly bugs: BugSet;
  /** Proposed fixes switched on (src/switches/fixes.ts). */
  readonly fixes: FixSet;
}

export const defaultLessorConfig: LessorConfig = {
  minLeaseTTLSeconds: 0,
  checkpointIntervalUs: 0,
  expiredLeasesRetryIntervalUs: 0,
  leaseRevokeRate: 0,
  checkpointPersist: false,
  clusterVersion: undefined,
  profile: V3_5,
  bugs: NO_BUGS,
  fixes: NO_FIXES,
};

/**
 * etcd server's minimum lease TTL: 1.5 election timeouts, counted in whole ticks, rounded up to a second.
 * (server/etcdserver/server.go: minTTL = ((3*electionTicks)/2) * heartbeat.)
 */
export function minLeaseTTLFor(heartbeatMs: number, electionMs: number): number {
  const electionTicks = Math.trunc(electionMs / heartbeatMs);
  const minTTLMs = Math.trunc((3 * electionTicks) / 2) * heartbeatMs;
  return ceilDiv(minTTLMs, 1000);
}

/** ServerConfig.ReqTimeout(): 5 s + 2 election timeouts; the server passes it as the retry interval. */
export function reqTimeoutUs(heartbeatMs: number, electionMs: number): Micros {
  const electionTicks = Math.trunc(electionMs / heartbeatMs);
  return 5 * MICROS_PER_SECOND + 2 * electionTicks * heartbeatMs * MICROS_PER_MS;
}

/** Resolved settings the lessor runs on (defaults filled in, arguments checked). */
export interface ResolvedLessorConfig {
  readonly minLeaseTTL: number;
  readonly checkpointIntervalUs: Micros;
  readonly expiredLeaseRetryIntervalUs: Micros;
  readonly leaseRevokeRate: number;
  readonly checkpointPersist: boolean;
  readonly clusterVersion: string | undefined;
  /** The profile, bugs and fixes as flags. */
  readonly behaviour: Behaviour;
}

export function resolveConfig(c: Partial<LessorConfig>): ResolvedLessorConfig {
  const cfg = { ...defaultLessorConfig, ...c };
  const nonNegInt = (v: number, what: string): void => {
    if (!Number.isSafeInteger(v) || v < 0)
      throw new InvalidArgumentError(`${what} must be a non-negative integer, got ${v}`);
  };
  nonNegInt(cfg.minLeaseTTLSeconds, 'minLeaseTTLSeconds');
  nonNegInt(cfg.checkpointIntervalUs, 'checkpointIntervalUs');
  nonNegInt(cfg.expiredLeasesRetryIntervalUs, 'expiredLeasesRetryIntervalUs');
  nonNegInt(cfg.leaseRevokeRate, 'leaseRevokeRate');
  if (cfg.clusterVersion !== undefined && !/^\d+\.\d+(\.\d+)?$/.test(cfg.clusterVersion)) {
    throw new InvalidArgumentError(`clusterVersion must look like 3.5.0, got ${JSON.stringify(cfg.clusterVersion)}`);
  }
  return {
    minLeaseTTL: cfg.minLeaseTTLSeconds,
    checkpointIntervalUs: cfg.checkpointIntervalUs || defaultLeaseCheckpointIntervalUs,
    expiredLeaseRetryIntervalUs: cfg.expiredLeasesRetryIntervalUs || defaultExpiredLeaseRetryIntervalUs,
    leaseRevokeRate: cfg.leaseRevokeRate || defaultLeaseRevokeRate,
    checkpointPersist: cfg.checkpointPersist,
    clusterVersion: cfg.clusterVersion,
    behaviour: resolveBehaviour(cfg.profile, cfg.bugs, cfg.fixes),
  };
}

/** etcd compares cluster versions by major.minor only (semver.Version{Major, Minor}). */
export function clusterVersionAtLeast(v: string | undefined, major: number, minor: number): boolean {
  if (v === undefined) return false;
  const [ma, mi] = v.split('.').map(Number) as [number, number];
  return ma > major || (ma === major && mi >= minor);
}
