/**
 * A member's switches resolved once: its profile (profile.ts), the historical bugs switched on (bugs.ts)
 * and the proposed fixes switched on (fixes.ts) become flags named by the behaviour they select, true
 * when the model does it. The lessor and the server read these flags, never the sets.
 */
import type { BugName, BugSet } from './bugs.js';
import type { FixName, FixSet } from './fixes.js';
import type { Profile } from './profile.js';

export interface Behaviour {
  // ---- Lessor: Grant, Promote, Demote, the heaps ----
  /** Grant arms the expiry notifier on every member and Demote leaves it alone (bug D1). */
  readonly registerExpiryOnFollowers: boolean;
  /** Promote schedules checkpoints for the leases it refreshes (off under bug A4). */
  readonly promoteSchedulesCheckpoints: boolean;
  /** Promote spreads expiries that pile up in one second (off under bug B1). */
  readonly promoteSpreadsPileup: boolean;
  /** Both lessor heaps are keyed on the wall clock: 3.4, or bug E1 in any profile. */
  readonly heapsOnWallClock: boolean;
  /** A checkpoint is persisted when the persist flag or the cluster version says so (never under bug A5). */
  readonly checkpointsPersist: boolean;

  // ---- Lessor: the run loop ----
  /** At most leaseRevokeRate/2 expired leases per pass (off under bug B1). */
  readonly revokeRateLimited: boolean;
  /** A due lease is re-armed at now + retry interval, so a failed revoke is offered again (off under bug B3). */
  readonly expiredLeaseRetried: boolean;
  /** The Checkpointer's error stops the pass's checkpointing and fails Renew (3.5). */
  readonly checkpointerReturnsError: boolean;
  /** The run loop waits for its checkpoint proposals (off under the fix run-loop-does-not-wait-for-checkpoint). */
  readonly runLoopWaitsForCheckpoints: boolean;
  /** A due checkpoint skipped for a just-renewed lease schedules the next (fix reschedule-skipped-checkpoint). */
  readonly rescheduleSkippedCheckpoint: boolean;

  // ---- Lessor: Renew ----
  /** Renew of an expired, not yet revoked lease waits for the revoke (off under bug C1). */
  readonly renewWaitsForRevokeOfExpired: boolean;
  /** Renew looks the lease up again after its clearing checkpoint: 3.5.23, off under bug C3. */
  readonly renewRechecksLease: boolean;
  /** Renew checks it is still primary after its clearing checkpoint (fix renew-rechecks-primary). */
  readonly renewRechecksPrimary: boolean;
  /** Renew checks the lease has not expired after its clearing checkpoint (fix renew-rechecks-expiry). */
  readonly renewRechecksExpiry: boolean;
  /** Renew clears behind a scheduled checkpoint in flight (fix renew-clears-inflight-checkpoint). */
  readonly renewClearsInflightCheckpoint: boolean;

  // ---- Server ----
  /** The lessor is promoted when raft elects the member, not on applying an empty entry (bug A2). */
  readonly promoteOnElection: boolean;
  /** Only an empty entry of the current term promotes (fix promote-on-own-term-entry). */
  readonly promoteOnOwnTermEntryOnly: boolean;
  /** Expired-lease revokes and checkpoints confirm leadership first: 3.5 or the fix, off under bug C4. */
  readonly revokeConfirmsLeadership: boolean;
  /** LeaseRenew on the leader confirms leadership first: 3.5 or the fix, off under bug C4. */
  readonly renewConfirmsLeadership: boolean;
  /**
   * Leadership is always confirmed by a ReadIndex round (no recent-tick shortcut), and the confirmed term
   * binds the proposals that follow (fix confirm-leadership-by-read-index).
   */
  readonly leadershipByReadIndex: boolean;
  /** The leader waits until it has applied its commit index before renewing (off under bug C2). */
  readonly renewWaitsForApply: boolean;
  /** TimeToLive of a lease on a demoted lessor answers ErrLeaderChanged: 3.5.14, off under bug C5. */
  readonly timeToLiveRejectsDemoted: boolean;
  /** TimeToLive and the peer lease handlers confirm leadership first (fix lease-reads-confirm-leadership). */
  readonly leaseReadsConfirmLeadership: boolean;
}

export function resolveBehaviour(profile: Profile, bugs: BugSet, fixes: FixSet): Behaviour {
  const bug = (name: BugName): boolean => bugs.has(name);
  const fix = (name: FixName): boolean => fixes.has(name);
  const confirmsLeadership = profile.ensureLeadership || fix('confirm-leadership-by-read-index');
  return {
    registerExpiryOnFollowers: bug('register-expiry-on-followers'),
    promoteSchedulesCheckpoints: !bug('no-checkpoint-schedule-on-promote'),
    promoteSpreadsPileup: !bug('no-promote-spreading'),
    heapsOnWallClock: profile.heapClock === 'wall' || bug('expiry-queue-uses-wall-clock'),
    checkpointsPersist: !bug('checkpoints-not-persisted'),
    revokeRateLimited: !bug('no-revoke-rate-limit'),
    expiredLeaseRetried: !bug('no-expired-lease-retry'),
    checkpointerReturnsError: profile.checkpointerReturnsError,
    runLoopWaitsForCheckpoints: !fix('run-loop-does-not-wait-for-checkpoint'),
    rescheduleSkippedCheckpoint: fix('reschedule-skipped-checkpoint'),
    renewWaitsForRevokeOfExpired: !bug('renew-expired-lease'),
    renewRechecksLease: profile.renewRechecksLease && !bug('renew-skips-recheck'),
    renewRechecksPrimary: fix('renew-rechecks-primary'),
    renewRechecksExpiry: fix('renew-rechecks-expiry'),
    renewClearsInflightCheckpoint: fix('renew-clears-inflight-checkpoint'),
    promoteOnElection: bug('promote-on-election'),
    promoteOnOwnTermEntryOnly: fix('promote-on-own-term-entry'),
    revokeConfirmsLeadership: confirmsLeadership && !bug('no-leadership-check-on-revoke'),
    renewConfirmsLeadership: confirmsLeadership && !bug('no-leadership-check-on-renew'),
    leadershipByReadIndex: fix('confirm-leadership-by-read-index'),
    renewWaitsForApply: !bug('renew-without-apply-wait'),
    timeToLiveRejectsDemoted: profile.timeToLiveRejectsDemoted && !bug('ttl-on-demoted-lessor'),
    leaseReadsConfirmLeadership: fix('lease-reads-confirm-leadership'),
  };
}
