import type { Process, ProcessTimer } from '../clock/process.js';
import { MICROS_PER_SECOND, NANOS_PER_MICRO, ceilDiv, truncDiv, type Micros } from '../clock/time.js';
import type { Behaviour } from '../switches/behaviour.js';
import { Marks } from '../trace/marks.js';
import { NO_TRACE, type Trace, type TraceFields, type TraceKind } from '../trace/trace.js';
import {
  MaxLeaseTTL,
  clusterVersionAtLeast,
  leaseCheckpointRate,
  maxLeaseCheckpointBatchSize,
  resolveConfig,
  runLoopPeriodUs,
  type LessorConfig,
  type ResolvedLessorConfig,
} from './config.js';
import {
  ErrLeaseExists,
  ErrLeaseNotFound,
  ErrLeaseTTLTooLarge,
  ErrNotPrimary,
  InvalidArgumentError,
  type LeaseError,
} from './errors.js';
import { ExpiredChannel } from './expired-channel.js';
import { Lease } from './lease.js';
import { LeaseBucket } from './lease-bucket.js';
import { NoLease, checkLeaseId, compareIds, leaseKey, type LeaseID, type ReadonlyLeaseIdMap } from './lease-id.js';
import { LeaseExpiredNotifier, LeaseQueue, type LeaseWithTime } from './lease-queue.js';
import { LeaseTable, type LeaseSlot } from './lease-table.js';
import { LessorMetrics } from './metrics.js';
import { Signal } from './signal.js';

/** One write transaction that deletes keys (etcd's TxnDelete); `end` commits it. */
export interface TxnDelete {
  deleteRange(key: string): void;
  end(): void;
}

/** etcd's RangeDeleter: opens the transaction a Revoke deletes its keys in. */
export type RangeDeleter = () => TxnDelete;

export interface LeaseCheckpoint {
  readonly id: LeaseID;
  readonly remainingTTL: number;
}

/**
 * etcd's Checkpointer: proposes a LeaseCheckpointRequest through raft and returns once it is applied
 * locally (synchronous in etcd, so here it calls `done`, possibly later). 3.5 may fail with an error.
 */
export type Checkpointer = (checkpoints: readonly LeaseCheckpoint[], done: (err?: LeaseError) => void) => void;

export type RenewOutcome =
  | { readonly ttl: number; readonly err?: undefined }
  | { readonly ttl: -1; readonly err: LeaseError };

/**
 * The lessor of one member (etcd's Lessor interface). Grant, Revoke, Checkpoint, Attach and Detach run
 * at apply time on every member; Renew only on the primary; Promote and Demote follow leadership.
 */
export interface Lessor {
  readonly member: string;
  readonly config: ResolvedLessorConfig;
  readonly metrics: LessorMetrics;
  readonly expiredLeasesC: ExpiredChannel;
  setRangeDeleter(rd: RangeDeleter): void;
  setCheckpointer(cp: Checkpointer | undefined): void;
  grant(id: LeaseID, ttl: number): Lease;
  revoke(id: LeaseID): void;
  checkpoint(id: LeaseID, remainingTTL: number): void;
  /**
   * Renews a lease. Answers synchronously unless it has to wait: for the revoke of an expired lease
   * (→ ErrLeaseNotFound), a demotion (→ ErrNotPrimary), or the clearing checkpoint's raft round trip.
   */
  renew(id: LeaseID, done: (o: RenewOutcome) => void): void;
  lookup(id: LeaseID): Lease | undefined;
  leases(): Lease[];
  getLease(item: string): LeaseID;
  attach(id: LeaseID, items: readonly string[]): void;
  detach(id: LeaseID, items: readonly string[]): void;
  promote(extend: Micros): void;
  demote(): void;
  recover(bucket: LeaseBucket, rd: RangeDeleter | undefined): void;
  stop(): void;
  isPrimary(): boolean;
  /** Read-only views for tests and property monitors. */
  inspect(): LessorView;
}

export interface LessorView {
  readonly primary: boolean;
  readonly notifier: readonly LeaseWithTime[];
  readonly checkpointHeap: readonly LeaseWithTime[];
  readonly itemMap: ReadonlyMap<string, LeaseID>;
  readonly leaseMap: ReadonlyLeaseIdMap<Lease>;
  readonly bucket: LeaseBucket;
}

export interface LessorDeps {
  readonly member?: string;
  readonly bucket?: LeaseBucket;
  readonly trace?: Trace;
  readonly marks?: Marks;
  /** Told of each run-loop pass (an onlooker's side channel; the trace does not record passes). */
  readonly onRunLoopPass?: (t: Micros, primary: boolean) => void;
}

/** newLessor: builds the lessor on `proc`, recovers leases from the bucket and starts the run loop. */
export function createLessor(proc: Process, config: Partial<LessorConfig> = {}, deps: LessorDeps = {}): Lessor {
  return new LessorImpl(proc, resolveConfig(config), deps);
}

class LessorImpl implements Lessor {
  readonly member: string;
  readonly metrics = new LessorMetrics();
  readonly expiredLeasesC = new ExpiredChannel();
  private readonly trace: Trace;
  private readonly marks: Marks;
  private bucket: LeaseBucket;
  /** etcd's leaseMap, sharing one map entry per ID with the expiry notifier. */
  private readonly table = new LeaseTable();
  private itemMap = new Map<string, LeaseID>();
  private readonly notifier = new LeaseExpiredNotifier(this.table);
  private checkpointHeap = new LeaseQueue();
  private demotec: Signal | undefined;
  private readonly stopc = new Signal();
  private rd: RangeDeleter | undefined;
  private cp: Checkpointer | undefined;
  /** Leases in scheduled checkpoint proposals not yet answered (read by a proposed fix only). */
  private readonly checkpointsInFlight = new Map<LeaseID, number>();
  private grantSeq = 0;
  private readonly onRunLoopPass: LessorDeps['onRunLoopPass'];
  /** The profile, bugs and fixes, as flags. */
  private readonly behaviour: Behaviour;
  /** The run loop's timer, set again after each pass. */
  private readonly loopTimer: ProcessTimer;
  private readonly loopPassDone = (): void => {
    if (!this.stopc.closed) this.loopTimer.arm(runLoopPeriodUs);
  };

  constructor(
    private readonly proc: Process,
    readonly config: ResolvedLessorConfig,
    deps: LessorDeps,
  ) {
    if (config.leaseRevokeRate === 1) {
      // Promote divides by (3*rate)/4, which is 0 for rate 1; etcd would overflow a Duration there.
      throw new InvalidArgumentError('leaseRevokeRate must be 0 (default) or at least 2');
    }
    this.member = deps.member ?? proc.name;
    this.behaviour = config.behaviour;
    this.trace = deps.trace ?? NO_TRACE;
    this.marks = deps.marks ?? new Marks();
    this.onRunLoopPass = deps.onRunLoopPass;
    this.bucket = deps.bucket ?? new LeaseBucket();
    this.initAndRecover();
    // [SIM-CHOICE] The first run-loop iteration runs at creation time, after the constructor returns.
    this.loopTimer = proc.timer(() => this.runLoop());
    this.loopTimer.arm(0);
  }

  setRangeDeleter(rd: RangeDeleter): void {
    this.rd = rd;
  }

  setCheckpointer(cp: Checkpointer | undefined): void {
    this.cp = cp;
  }

  isPrimary(): boolean {
    return this.demotec !== undefined;
  }

  // ---- Replicated operations (apply time, every member) -------------------------------------------

  grant(id: LeaseID, ttl: number): Lease {
    checkLeaseId(id);
    if (!Number.isSafeInteger(ttl))
      throw new InvalidArgumentError(`lease TTL must be a whole number of seconds, got ${ttl}`);
    if (id === NoLease) throw ErrLeaseNotFound;
    // The upper bound is checked before the minimum clamp, so no TTL is ever too small.
    if (ttl > MaxLeaseTTL) throw ErrLeaseTTLTooLarge;
    const key = leaseKey(id);
    const slot = this.table.slotFor(id, key);
    if (slot.lease !== undefined) throw ErrLeaseExists;
    const l = new Lease(id, Math.max(ttl, this.config.minLeaseTTL), this.grantSeq++, key);
    const now = this.proc.now();
    const primary = this.isPrimary();
    // Grant refreshes with no extension: only Promote adds the election timeout.
    if (primary) l.refresh(now, 0);
    this.table.put(slot, l);
    this.persist(l);
    this.metrics.grantedTotal++;
    this.metrics.observeTTL(l.ttl);
    // Bug D1: registering on a follower leaks an entry nobody will ever pop.
    if (primary || this.behaviour.registerExpiryOnFollowers)
      this.notifier.registerOrUpdate(slot, this.heapTime(l.expiry));
    if (primary) this.scheduleCheckpointIfNeeded(l);
    if (this.trace.enabled) this.emit('lease-grant', id, { ttl: l.ttl, expiry: l.expiry });
    return l;
  }

  revoke(id: LeaseID): void {
    const slot = this.table.slot(id);
    const l = slot?.lease;
    if (l === undefined) throw ErrLeaseNotFound;
    try {
      // Without a deleter (unit tests) the lease stays, but revokec still closes.
      if (this.rd === undefined) return;
      const txn = this.rd();
      // Sorted so every member deletes in the same order and the watch events agree.
      const keys = l.keys();
      for (const k of keys) txn.deleteRange(k);
      this.table.remove(slot!);
      this.bucket.delete(id, l.key);
      txn.end();
      this.metrics.revokedTotal++;
      if (this.trace.enabled) this.emit('lease-revoke', id, { keys });
    } finally {
      // Waiters (a Renew blocked on this expired lease) wake as goroutines would: after this call.
      l.closeRevoke();
    }
  }

  checkpoint(id: LeaseID, remainingTTL: number): void {
    const l = this.table.get(id);
    if (l === undefined) return;
    // The expiry is not touched, not even on the primary: only the next Promote or restart uses it.
    l.remainingTTL = remainingTTL;
    if (this.shouldPersistCheckpoints()) this.persist(l);
    if (this.isPrimary()) this.scheduleCheckpointIfNeeded(l);
    if (this.trace.enabled) this.emit('lease-checkpoint', id, { remaining: remainingTTL });
  }

  attach(id: LeaseID, items: readonly string[]): void {
    const l = this.table.get(id);
    if (l === undefined) throw ErrLeaseNotFound;
    for (const it of items) {
      l.itemSet.add(it);
      this.itemMap.set(it, id);
    }
    if (this.trace.enabled) this.emit('lease-attach', id, { keys: items });
  }

  detach(id: LeaseID, items: readonly string[]): void {
    const l = this.table.get(id);
    if (l === undefined) throw ErrLeaseNotFound;
    for (const it of items) {
      l.itemSet.delete(it);
      this.itemMap.delete(it);
    }
    if (this.trace.enabled) this.emit('lease-detach', id, { keys: items });
  }

  // ---- Renew (primary only, not replicated) -------------------------------------------------------

  renew(id: LeaseID, done: (o: RenewOutcome) => void): void {
    if (!this.isPrimary()) return done({ ttl: -1, err: ErrNotPrimary });
    const dc = this.demotec!;
    const slot = this.table.slot(id);
    const l = slot?.lease;
    if (l === undefined) return done({ ttl: -1, err: ErrLeaseNotFound });
    // Proposed fix: a scheduled checkpoint computed before this renewal and applied after it would put
    // the old remaining TTL back; clearing behind it in the log undoes that.
    const inFlight = this.behaviour.renewClearsInflightCheckpoint && this.checkpointsInFlight.has(id);
    const clearRemaining = this.cp !== undefined && (l.remainingTTL > 0 || inFlight);
    // An expired lease waits for its revoke; bug C1 refreshes it, although the revoke may be on its way.
    if (l.expired(this.proc.now()) && this.behaviour.renewWaitsForRevokeOfExpired)
      return this.waitForRevoke(id, l, dc, done);
    if (!clearRemaining) return this.finishRenew(id, slot, l, done);
    // Clear the stale checkpoint first so a later Promote uses the full TTL (at most 2 entries/lease/interval).
    this.cp!([{ id, remainingTTL: 0 }], (err) => {
      if (err !== undefined && this.behaviour.checkpointerReturnsError) return done({ ttl: -1, err });
      // Proposed fix: the checkpoint took a raft round trip, across which this lessor may have been demoted.
      if (this.behaviour.renewRechecksPrimary && (!this.isPrimary() || this.demotec !== dc))
        return done({ ttl: -1, err: ErrNotPrimary });
      // Proposed fix: the lease can expire during that round trip, and the run loop may already have
      // proposed its revoke; wait for it as a renewal of an expired lease does.
      if (this.behaviour.renewRechecksExpiry && l.expired(this.proc.now())) return this.waitForRevoke(id, l, dc, done);
      // A raft round trip later the ID may have a new slot (revoked, dropped, granted again): look again.
      this.finishRenew(id, this.table.slot(id), l, done);
    });
  }

  /** Expired but not yet revoked: block until the revoke applies or this lessor stops being primary. */
  private waitForRevoke(id: LeaseID, l: Lease, dc: Signal, done: (o: RenewOutcome) => void): void {
    this.marks.hit('renew-waits-for-revoke');
    if (this.trace.enabled) this.emit('lease-renew-wait', id, {});
    let settled = false;
    const settle = (err: LeaseError): void => {
      if (settled) return;
      settled = true;
      this.proc.after(0, () => done({ ttl: -1, err }));
    };
    l.onRevoked(() => settle(ErrLeaseNotFound));
    dc.wait(() => settle(ErrNotPrimary));
    this.stopc.wait(() => settle(ErrNotPrimary));
  }

  /** `slot` is the ID's current slot, if it has one. */
  private finishRenew(id: LeaseID, slot: LeaseSlot | undefined, stale: Lease, done: (o: RenewOutcome) => void): void {
    let l = stale;
    if (this.behaviour.renewRechecksLease) {
      const again = slot?.lease;
      if (again === undefined) return done({ ttl: -1, err: ErrLeaseNotFound });
      l = again;
    }
    // 3.4 refreshes the object it looked up before the checkpoint, even if a revoke ran meanwhile (and
    // arms a notifier entry for the ID, whether or not it still has a lease).
    l.refresh(this.proc.now(), 0);
    this.notifier.registerOrUpdate(slot ?? this.table.slotFor(id), this.heapTime(l.expiry));
    this.metrics.renewedTotal++;
    if (this.trace.enabled) this.emit('lease-renew', id, { ttl: l.ttl, expiry: l.expiry });
    done({ ttl: l.ttl });
  }

  // ---- Reads ---------------------------------------------------------------------------------------

  lookup(id: LeaseID): Lease | undefined {
    return this.table.get(id);
  }

  leases(): Lease[] {
    // Ascending time left; ties (every lease on a follower) by grant order, then ID [SIM-CHOICE].
    return [...this.table.values()].sort(
      (a, b) => compareExpiry(a.expiry, b.expiry) || a.grantSeq - b.grantSeq || compareIds(a.id, b.id),
    );
  }

  getLease(item: string): LeaseID {
    return this.itemMap.get(item) ?? NoLease;
  }

  // ---- Leadership ----------------------------------------------------------------------------------

  promote(extend: Micros): void {
    const now = this.proc.now();
    // A new demotec; an old one is overwritten, not closed (etcd does the same).
    this.demotec = new Signal();
    const ordered = this.leasesById();
    // Bug A4: before etcd-io/etcd#13508 Promote scheduled no checkpoints.
    for (const l of ordered) {
      l.refresh(now, extend);
      this.notifier.registerOrUpdate(this.table.slotAt(l.key)!, this.heapTime(l.expiry));
      if (this.behaviour.promoteSchedulesCheckpoints) this.scheduleCheckpointIfNeeded(l);
    }
    let spread = 0;
    if (ordered.length >= this.config.leaseRevokeRate && this.behaviour.promoteSpreadsPileup)
      spread = this.spreadPileup(now, extend, ordered);
    if (this.trace.enabled) {
      this.emit('lessor-promote', undefined, { extend, leases: ordered.length, spread });
      // One line per lease, so `explain` can say what this promotion did to each of them.
      for (const l of ordered) this.emit('lease-promoted', l.id, { remaining: l.getRemainingTTL(), expiry: l.expiry });
    }
  }

  /**
   * Promote's pile-up spreading: leases are walked in expiry order in one-second windows; past
   * (3*rate)/4 leases in a window, each further lease is pushed to base + k/target seconds. The delay is
   * computed as Go does (float64 nanoseconds, truncated to a Duration); the sub-microsecond part is
   * rounded up, which is exact for every "is it expired yet" test on the microsecond clock.
   */
  private spreadPileup(now: Micros, extend: Micros, byId: Lease[]): number {
    const sorted = byId.slice().sort((a, b) => a.expiry - b.expiry || compareIds(a.id, b.id));
    const target = Math.trunc((3 * this.config.leaseRevokeRate) / 4);
    let baseWindow = sorted[0]!.expiry - now;
    // nextWindow is held as an offset in ns from baseWindow, so every comparison stays exact.
    let nextWindowNs = 1e9;
    let expires = 0;
    let moved = 0;
    for (const l of sorted) {
      const remaining = l.expiry - now;
      const sinceBaseNs = (remaining - baseWindow) * NANOS_PER_MICRO;
      if (sinceBaseNs > nextWindowNs) {
        baseWindow = remaining;
        nextWindowNs = 1e9;
        expires = 1;
        continue;
      }
      expires++;
      if (expires <= target) continue;
      const rateDelayNs = 1e9 * (expires / target) - sinceBaseNs;
      const delayNs = Math.trunc(rateDelayNs);
      nextWindowNs = delayNs;
      l.refresh(now, ceilDiv(delayNs, NANOS_PER_MICRO) + extend);
      this.notifier.registerOrUpdate(this.table.slotAt(l.key)!, this.heapTime(l.expiry));
      if (this.behaviour.promoteSchedulesCheckpoints) this.scheduleCheckpointIfNeeded(l);
      moved++;
    }
    if (moved > 0) this.marks.hit('promote-spreads-pileup');
    return moved;
  }

  demote(): void {
    for (const l of this.table.values()) l.forever();
    this.checkpointHeap = new LeaseQueue();
    // Bug D1 era (3.4.0–3.4.5): Demote left the expiry notifier alone.
    if (!this.behaviour.registerExpiryOnFollowers) this.notifier.clear();
    const wasPrimary = this.demotec !== undefined;
    if (this.demotec !== undefined) {
      // Closing demotec wakes every Renew blocked on an expired lease with ErrNotPrimary.
      const dc = this.demotec;
      this.demotec = undefined;
      dc.close();
    }
    if (wasPrimary && this.trace.enabled) this.emit('lessor-demote', undefined, { leases: this.table.size });
  }

  recover(bucket: LeaseBucket, rd: RangeDeleter | undefined): void {
    this.bucket = bucket;
    this.rd = rd;
    this.table.clearLeases();
    this.itemMap = new Map();
    // The primary flag, the notifier and the checkpoint heap survive; every lease comes back at forever.
    this.initAndRecover();
  }

  stop(): void {
    this.loopTimer.cancel();
    this.stopc.close();
  }

  inspect(): LessorView {
    return {
      primary: this.isPrimary(),
      notifier: this.notifier.entries(),
      checkpointHeap: this.checkpointHeap.items,
      itemMap: this.itemMap,
      leaseMap: this.table,
      bucket: this.bucket,
    };
  }

  // ---- The run loop --------------------------------------------------------------------------------

  /** One iteration, then the next 500 ms after this one ends (3.4/3.5 use time.After, not a ticker). */
  private runLoop(): void {
    if (this.stopc.closed) return;
    this.onRunLoopPass?.(this.proc.now(), this.isPrimary());
    this.revokeExpiredLeases();
    this.checkpointScheduledLeases(0, this.loopPassDone);
  }

  private revokeExpiredLeases(): void {
    if (!this.isPrimary()) return;
    // Bug B1: without the rate limit every expired lease goes out in one batch (-1 never matches a length).
    const limit = this.behaviour.revokeRateLimited ? Math.trunc(this.config.leaseRevokeRate / 2) : -1;
    const batch = this.findExpiredLeases(limit);
    if (batch.length === 0) return;
    if (this.trace.enabled) {
      for (const l of batch) this.emit('lease-expired', l.id, { expiry: l.expiry });
    }
    if (!this.expiredLeasesC.trySend(batch)) {
      this.marks.hit('expired-batch-dropped');
      if (this.trace.enabled) this.emit('lessor-expired-dropped', undefined, { count: batch.length });
    }
  }

  private findExpiredLeases(limit: number): Lease[] {
    const out: Lease[] = [];
    const now = this.proc.now();
    const heapNow = this.heapNow();
    const retry = this.config.expiredLeaseRetryIntervalUs;
    const rearm = this.behaviour.expiredLeaseRetried;
    for (;;) {
      const s = expireExists(this.notifier, heapNow, retry, rearm);
      if (s === EMPTY || s === NOT_DUE) break;
      if (s === STALE) continue;
      if (s.expired(now)) {
        out.push(s);
        // `===` as in etcd: a limit of 0 (rate 1) never stops the scan.
        if (out.length === limit) {
          this.marks.hit('revoke-rate-limited');
          break;
        }
      }
    }
    return out;
  }

  private checkpointScheduledLeases(round: number, done: () => void): void {
    if (round >= leaseCheckpointRate / 2) return done();
    const cps = this.isPrimary() ? this.findDueScheduledCheckpoints(maxLeaseCheckpointBatchSize) : [];
    const next = (): void => {
      if (cps.length < maxLeaseCheckpointBatchSize) done();
      else this.checkpointScheduledLeases(round + 1, done);
    };
    if (cps.length === 0) return next();
    if (this.trace.enabled) this.emit('lessor-checkpoint-propose', undefined, { count: cps.length });
    const answered = this.trackInFlight(cps);
    // Proposed fix: the loop goes on without waiting; a proposal a leader change lost then costs one
    // checkpoint, not ReqTimeout of neither revoking nor checkpointing.
    if (!this.behaviour.runLoopWaitsForCheckpoints) {
      this.cp!(cps, answered);
      return next();
    }
    this.cp!(cps, (err) => {
      answered();
      if (err !== undefined && this.behaviour.checkpointerReturnsError) return done();
      next();
    });
  }

  /** Counts the proposal's leases as in flight; the returned function, called on its answer, uncounts them. */
  private trackInFlight(cps: readonly LeaseCheckpoint[]): () => void {
    if (!this.behaviour.renewClearsInflightCheckpoint) return () => {};
    const f = this.checkpointsInFlight;
    for (const c of cps) f.set(c.id, (f.get(c.id) ?? 0) + 1);
    return () => {
      for (const c of cps) {
        const n = (f.get(c.id) ?? 1) - 1;
        if (n > 0) f.set(c.id, n);
        else f.delete(c.id);
      }
    };
  }

  private findDueScheduledCheckpoints(limit: number): LeaseCheckpoint[] {
    if (this.cp === undefined) return [];
    const now = this.proc.now();
    const heapNow = this.heapNow();
    const out: LeaseCheckpoint[] = [];
    while (this.checkpointHeap.length > 0 && out.length < limit) {
      const top = this.checkpointHeap.peek()!;
      if (top.time > heapNow) break;
      this.checkpointHeap.pop();
      const l = this.table.get(top.id);
      if (l === undefined) continue;
      if (now >= l.expiry) {
        this.marks.hit('checkpoint-skipped');
        continue;
      }
      const remainingTTL = ceilDiv(l.expiry - now, MICROS_PER_SECOND);
      if (remainingTTL >= l.ttl) {
        // Nothing worth saving: the lease was renewed (or promoted) since it was scheduled.
        this.marks.hit('checkpoint-skipped');
        // Proposed fix: etcd drops the lease from the schedule here, so a later stop of its renewals
        // leaves it with no checkpoint; schedule the next one instead.
        if (this.behaviour.rescheduleSkippedCheckpoint) this.scheduleCheckpointIfNeeded(l);
        continue;
      }
      out.push({ id: top.id, remainingTTL });
    }
    return out;
  }

  private scheduleCheckpointIfNeeded(l: Lease): void {
    if (this.cp === undefined) return;
    // Strictly above the interval in whole seconds, judged on the last checkpointed value.
    if (l.getRemainingTTL() > truncDiv(this.config.checkpointIntervalUs, MICROS_PER_SECOND)) {
      this.checkpointHeap.push1(l.id, this.heapNow() + this.config.checkpointIntervalUs);
    }
  }

  // ---- Helpers -------------------------------------------------------------------------------------

  private initAndRecover(): void {
    for (const r of this.bucket.all()) {
      // Re-clamped with the current minimum; the clamped value is not written back.
      const l = new Lease(r.id, Math.max(r.ttl, this.config.minLeaseTTL), this.grantSeq++);
      l.remainingTTL = r.remainingTTL;
      this.table.put(this.table.slotFor(r.id, l.key), l);
    }
    this.notifier.init();
    this.checkpointHeap.init();
  }

  private persist(l: Lease): void {
    this.bucket.put({ id: l.id, ttl: l.ttl, remainingTTL: l.remainingTTL }, l.key);
  }

  private shouldPersistCheckpoints(): boolean {
    // Bug A5: before etcd-io/etcd#13508 a checkpoint lived only in memory.
    if (!this.behaviour.checkpointsPersist) return false;
    return this.config.checkpointPersist || clusterVersionAtLeast(this.config.clusterVersion, 3, 6);
  }

  /** Go map iteration is random; the documented order here is ascending lease ID. */
  private leasesById(): Lease[] {
    return [...this.table.values()].sort((a, b) => compareIds(a.id, b.id));
  }

  /** The clock the heaps are keyed on: wall-clock in 3.4 (UnixNano), monotonic in 3.5. */
  private heapNow(): Micros {
    return this.wallHeap ? this.proc.wallNow() : this.proc.now();
  }

  private heapTime(expiry: Micros): Micros {
    return this.wallHeap ? expiry + (this.proc.wallNow() - this.proc.now()) : expiry;
  }

  /** 3.4 keys the heaps on the wall clock; bug E1 brings that to any profile. */
  private get wallHeap(): boolean {
    return this.behaviour.heapsOnWallClock;
  }

  private emit<K extends TraceKind>(kind: K, lease: LeaseID | undefined, fields: TraceFields[K]): void {
    this.trace.emit(
      lease === undefined
        ? { t: this.proc.now(), member: this.member, kind, fields }
        : { t: this.proc.now(), member: this.member, kind, lease, fields },
    );
  }
}

/** The notifier is empty. */
export const EMPTY = Symbol('empty');
/** The root belonged to a revoked lease and was popped (lazy deletion); look again. */
export const STALE = Symbol('stale');
/** The root is not due yet. */
export const NOT_DUE = Symbol('not-due');

export type ExpireStatus = Lease | typeof EMPTY | typeof STALE | typeof NOT_DUE;

/**
 * etcd's lessor.expireExists, called by findExpiredLeases: looks at the earliest notifier entry. A due entry is
 * re-armed at
 * now + retryInterval *before* its lease is handed out, so a lease whose revoke never lands is offered
 * again one retry interval later. Returns the due lease (which the caller still checks for `expired()`).
 * A method in etcd; a function of the notifier here (whose entries know their lease in the lease map),
 * so the queue's own conformance test (lease_queue_test.go) can drive it without a lessor around it.
 */
export function expireExists(
  notifier: LeaseExpiredNotifier,
  now: Micros,
  retryInterval: Micros,
  /** False under bug B3 (no-expired-lease-retry): the due entry is popped, so a failed revoke is never retried. */
  rearm = true,
): ExpireStatus {
  if (notifier.len() === 0) return EMPTY;
  const item = notifier.poll()!;
  const l = item.lease;
  if (l === undefined) {
    notifier.unregister();
    return STALE;
  }
  if (now < item.time) return NOT_DUE;
  // RegisterOrUpdate of the root's own entry: re-keyed in place.
  if (rearm) notifier.registerOrUpdate(item, now + retryInterval);
  else notifier.unregister();
  return l;
}

function compareExpiry(a: Micros, b: Micros): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
