import type { Process } from '../clock/process.js';
import type { Micros } from '../clock/time.js';
import type { EtcdClient } from '../client/index.js';
import type { TraceFields } from '../trace/trace.js';

/** The lease a holder acquired its lock with. */
export interface HeldLease {
  readonly id: bigint;
  readonly ttlSeconds: number;
  /** The holder's own clock when it sent the LeaseGrant. */
  readonly grantSentAt: Micros;
}

/** What a heartbeat strategy may use and tell: the holder's client and clock, and its verdicts. */
export interface HeartbeatHost {
  readonly client: EtcdClient;
  readonly process: Process;
  readonly marginUs: Micros;
  /** The Python daemon loop's `interval_s`. */
  readonly intervalUs: Micros;
  /** The holder's own clock (its process's wall clock: it moves with a clock jump). */
  clock(): Micros;
  /**
   * The strategy's onLost: stop the critical section (for this lease), then re-acquire. `lateUs`: the
   * holder stopped acting that long ago already (it checks before every act and was paused meanwhile).
   */
  lost(lease: HeldLease, reason: string, lateUs?: number): void;
  renewed(lease: HeldLease, fields: TraceFields['holder-renewed']): void;
  /**
   * The holder will not act after `ownClockUs` on its own clock: a bound it enforces itself (checked
   * before every act), so its belief ends there even if it is paused and notices only later.
   */
  actsUntil(lease: HeldLease, ownClockUs: Micros): void;
  /** A signal the strategy saw, and what it concluded (`lost`, `still-held`, `retry`). */
  noticed(
    lease: HeldLease,
    signal: string,
    verdict: string,
    fields?: Omit<TraceFields['holder-noticed'], 'signal' | 'verdict'>,
  ): void;
}

/** A running heartbeat: `cancel` is the holder cancelling its context (a planned stop, not a loss). */
export interface Heartbeat {
  cancel(): void;
  /** Asked before every write of the critical section; false stops it (only `deadline` says no). */
  mayAct?(): boolean;
}

export type HeartbeatStrategy = (host: HeartbeatHost, lease: HeldLease) => Heartbeat;
