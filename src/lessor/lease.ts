import { MICROS_PER_SECOND, wholeSeconds, type Micros } from '../clock/time.js';
import { leaseKey, type LeaseID, type LeaseKey } from './lease-id.js';

/** Go's zero time.Time: "never expires". Every lease on a non-primary lessor sits here. */
export const FOREVER: Micros = Number.POSITIVE_INFINITY;

/** What TimeToLive reports for a lease at FOREVER: Remaining() is MaxInt64 ns, i.e. 9223372036 s. */
export const FOREVER_TTL_SECONDS = 9_223_372_036;

const NO_KEYS: readonly string[] = Object.freeze([]);

/** One lease (etcd's Lease struct). `expiry` is local to this member; everything else is replicated. */
export class Lease {
  /** Last checkpointed remaining TTL in seconds; 0 means unset, use `ttl`. */
  remainingTTL = 0;
  expiry: Micros = FOREVER;
  /** The ID as the lessor's maps key it, made once. */
  readonly key: LeaseKey;
  // Allocated on first attach: most leases in a storm never carry a key.
  private items: Set<string> | undefined;
  private revokeWaiters: Array<() => void> | undefined;
  private revokeClosed = false;

  constructor(
    readonly id: LeaseID,
    /** Granted TTL in seconds, after the minimum-TTL clamp. */
    public ttl: number,
    /** Order of creation on this lessor; a documented tie-break where Go's order is random. */
    readonly grantSeq: number,
    key: LeaseKey = leaseKey(id),
  ) {
    this.key = key;
  }

  /** etcd's RemainingTTL(): the checkpointed value when set, else the granted ttl. */
  getRemainingTTL(): number {
    return this.remainingTTL > 0 ? this.remainingTTL : this.ttl;
  }

  /** expiry = now + extend + RemainingTTL() seconds (never the raw ttl when a checkpoint is set). */
  refresh(now: Micros, extend: Micros): void {
    this.expiry = now + extend + this.getRemainingTTL() * MICROS_PER_SECOND;
  }

  forever(): void {
    this.expiry = FOREVER;
  }

  /** Time left until expiry; Infinity at FOREVER; negative once past. */
  remaining(now: Micros): Micros {
    return this.expiry - now;
  }

  expired(now: Micros): boolean {
    return this.expiry - now <= 0;
  }

  /** Demoted(): the lease sits at forever (3.5.14+ uses it to refuse answering TimeToLive). */
  demoted(): boolean {
    return this.expiry === FOREVER;
  }

  /** TimeToLive's TTL: whole seconds of Remaining(), truncated toward zero; 9223372036 at forever. */
  remainingSeconds(now: Micros): number {
    return this.expiry === FOREVER ? FOREVER_TTL_SECONDS : wholeSeconds(this.expiry - now);
  }

  /** The keys attached to this lease (etcd's itemSet). */
  get itemSet(): Set<string> {
    return (this.items ??= new Set());
  }

  get hasItems(): boolean {
    return this.items !== undefined && this.items.size > 0;
  }

  /** Attached keys, sorted (Go returns map order; sorted is the documented deterministic choice). */
  keys(): readonly string[] {
    return this.hasItems ? [...this.items!].sort() : NO_KEYS;
  }

  get revoked(): boolean {
    return this.revokeClosed;
  }

  /** Registers a callback for when Revoke completes (etcd's `<-l.revokec`); runs now if already closed. */
  onRevoked(fn: () => void): void {
    if (this.revokeClosed) fn();
    else (this.revokeWaiters ??= []).push(fn);
  }

  /** close(l.revokec): runs once, when Revoke returns on any path. */
  closeRevoke(): void {
    if (this.revokeClosed) return;
    this.revokeClosed = true;
    const w = this.revokeWaiters;
    this.revokeWaiters = undefined;
    if (w !== undefined) for (const fn of w) fn();
  }
}
