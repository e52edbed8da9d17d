/**
 * etcd versions as data. Every behaviour that differs between the modelled releases is a named switch
 * here, with the release that introduced it, so a reader can see why two profiles disagree.
 */
export interface Profile {
  readonly name: 'v3.4' | 'v3.5';
  readonly etcdVersion: string;
  /**
   * 3.4 keys both lessor heaps by wall-clock Unix time (`expiry.UnixNano()`) while `expired()` reads the
   * monotonic clock, so a wall-clock jump moves when entries look due. 3.5 uses monotonic time.Time.
   */
  readonly heapClock: 'wall' | 'monotonic';
  /**
   * The Checkpointer returns an error; the run loop stops checkpointing for the tick and Renew fails with it (3.5.13).
   */
  readonly checkpointerReturnsError: boolean;
  /**
   * Renew looks the lease up again after the clearing checkpoint, so a revoke in between gives ErrLeaseNotFound
   * (3.5.23).
   */
  readonly renewRechecksLease: boolean;
  /** Server: renew leader path, checkpointer and expired-lease revokes confirm leadership first (3.5.13). */
  readonly ensureLeadership: boolean;
  /** Server: TimeToLive of a lease on a demoted lessor answers ErrLeaderChanged instead of 9223372036 s (3.5.14). */
  readonly timeToLiveRejectsDemoted: boolean;
  /** Server: pause between rounds of forwarding a renew to the leader, ms (3.5 adds 50 ms; 3.4 spins). */
  readonly forwardRenewThrottleMs: number;
  /** etcd's --pre-vote default (3.5 turned it on). */
  readonly preVoteDefault: boolean;
  /**
   * Server: which applied entries move the consistent index on disk. 3.5 saves it for every entry. 3.4
   * saves it only in a write transaction that changed the keyspace (mvcc/kvstore_txn.go End: "only
   * update index if the txn modifies the mvcc state") and in a snapshot (mvcc/kvstore.go Commit), so on
   * restart every entry above it is applied again (etcdserver/server.go applyEntryNormal: `e.Index >
   * consistIndex`), lease grants, revokes and checkpoints included.
   */
  readonly consistentIndexSavedBy: 'every-entry' | 'keyspace-change-or-snapshot';
}

export const V3_4: Profile = {
  name: 'v3.4',
  etcdVersion: '3.4.23',
  heapClock: 'wall',
  checkpointerReturnsError: false,
  renewRechecksLease: false,
  ensureLeadership: false,
  timeToLiveRejectsDemoted: false,
  forwardRenewThrottleMs: 0,
  preVoteDefault: false,
  consistentIndexSavedBy: 'keyspace-change-or-snapshot',
};

export const V3_5: Profile = {
  name: 'v3.5',
  etcdVersion: '3.5.33',
  heapClock: 'monotonic',
  checkpointerReturnsError: true,
  renewRechecksLease: true,
  ensureLeadership: true,
  timeToLiveRejectsDemoted: true,
  forwardRenewThrottleMs: 50,
  preVoteDefault: true,
  consistentIndexSavedBy: 'every-entry',
};

export const PROFILES: Readonly<Record<Profile['name'], Profile>> = { 'v3.4': V3_4, 'v3.5': V3_5 };
