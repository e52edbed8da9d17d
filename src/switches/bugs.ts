/**
 * Historical etcd lease bugs the model can reproduce, each a named switch that is off by default. The
 * table lives in the lowest layer that needs it (the lessor), so every layer reads the same names;
 * scenario files name them in `bugs: [...]`. Each entry cites the etcd issue and the bug catalogue entry
 * (docs/bugs.md) it comes from.
 */
export interface BugInfo {
  /** Entry in the bug catalogue, e.g. "C4". */
  readonly catalogue: string;
  readonly title: string;
  /** etcd issues and pull requests. */
  readonly links: readonly string[];
  readonly affected: string;
  /** What the switch changes in the model, in one sentence. */
  readonly effect: string;
}

export const BUGS = {
  'promote-on-election': {
    catalogue: 'A2',
    title: 'lessor promoted before old-term entries are applied',
    links: ['etcd-io/etcd#6570'],
    affected: 'v3.0.0–v3.0.17 (fixed v3.1.0)',
    effect: 'a new leader promotes its lessor as soon as raft elects it, not when it applies its own empty entry',
  },
  'no-checkpoint-schedule-on-promote': {
    catalogue: 'A4',
    title: 'checkpoints scheduled only until the first leader change',
    links: ['etcd-io/etcd#13491', 'etcd-io/etcd#13508'],
    affected: 'v3.4.0–v3.4.19, v3.5.0–v3.5.1 (fixed v3.4.20, v3.5.2)',
    effect: 'Promote refreshes leases but schedules no checkpoints for them',
  },
  'checkpoints-not-persisted': {
    catalogue: 'A5',
    title: 'checkpointed remaining TTL lost on restart',
    links: ['etcd-io/etcd#13491', 'etcd-io/etcd#13508', 'etcd-io/etcd#17132'],
    affected:
      'v3.4.0–v3.4.19, ' +
      'v3.5.0–v3.5.1; ' +
      'later versions without ' +
      '--experimental-enable-lease-checkpoint-persist',
    effect: 'a checkpoint only sets remainingTTL in memory, whatever the persist flag or cluster version says',
  },
  'no-promote-spreading': {
    catalogue: 'B1',
    title: 'revoke storm after a leader change: no spreading of piled-up expiries',
    links: ['etcd-io/etcd#8096', 'etcd-io/etcd#8097', 'etcd-io/etcd#8149'],
    affected: 'v3.0–v3.2 (fixed v3.3.0)',
    effect: 'Promote gives every lease now + extend + TTL, however many expire in the same second',
  },
  'no-revoke-rate-limit': {
    catalogue: 'B1',
    title: 'revoke storm: expired leases are not rate limited',
    links: ['etcd-io/etcd#8097', 'etcd-io/etcd#8099'],
    affected: 'v3.0–v3.2 (fixed v3.3.0)',
    effect: 'the run loop offers every expired lease in one batch instead of at most rate/2 per tick',
  },
  'no-expired-lease-retry': {
    catalogue: 'B3',
    title: 'an expired lease whose revoke failed is never offered again',
    links: ['etcd-io/etcd#9935', 'etcd-io/etcd#10686', 'etcd-io/etcd#10693'],
    affected: 'the heap of etcd-io/etcd#9418 before etcd-io/etcd#10693 (master before v3.4.0)',
    effect: 'a due lease is popped from the expiry queue instead of re-armed at now + retry interval',
  },
  'renew-expired-lease': {
    catalogue: 'C1',
    title: 'KeepAlive renews a lease that has already expired',
    links: ['etcd-io/etcd#6570'],
    affected: 'v3.0.x (fixed v3.1.0)',
    effect: 'Renew of an expired, not yet revoked lease refreshes it instead of waiting for the revoke',
  },
  'renew-without-apply-wait': {
    catalogue: 'C2',
    title: 'renew or TimeToLive before the grant is applied on the leader',
    links: ['etcd-io/etcd#13675', 'etcd-io/etcd#13690'],
    affected: 'v3.1.0–v3.5.2, v3.4.0–v3.4.19 (fixed v3.5.3, v3.4.20)',
    effect: 'the leader renews without first waiting for its applied index to reach the commit index',
  },
  'renew-skips-recheck': {
    catalogue: 'C3',
    title: 'Renew racing with Revoke returns success for a revoked lease',
    links: ['etcd-io/etcd#20590', 'etcd-io/etcd#20547'],
    affected: 'v3.4.0–v3.4.37, v3.5.0–v3.5.22 (fixed v3.4.38, v3.5.23)',
    effect: 'Renew refreshes the lease it looked up before the clearing checkpoint without looking it up again',
  },
  'no-leadership-check-on-revoke': {
    catalogue: 'C4',
    title: 'a stuck old leader revokes leases renewed on the new leader',
    links: ['etcd-io/etcd#15247', 'etcd-io/etcd#16822'],
    affected: 'up to v3.5.12, v3.4.30 (fixed v3.5.13, v3.4.31)',
    effect: 'expired-lease revokes and checkpoints are proposed without confirming leadership first',
  },
  'no-leadership-check-on-renew': {
    catalogue: 'C4',
    title: 'a stuck old leader accepts keep-alives nobody else sees',
    links: ['etcd-io/etcd#15247', 'etcd-io/etcd#16822'],
    affected: 'up to v3.5.12, v3.4.30 (fixed v3.5.13, v3.4.31)',
    effect: 'LeaseRenew on a member that believes it leads renews without confirming leadership',
  },
  'ttl-on-demoted-lessor': {
    catalogue: 'C5',
    title: 'TimeToLive returns 9223372036 s during a leader change',
    links: ['etcd-io/etcd#12381', 'etcd-io/etcd#17506', 'etcd-io/etcd#17642'],
    affected: 'up to v3.5.13, v3.4.31 (fixed v3.5.14, v3.4.32)',
    effect: 'TimeToLive answers a demoted lease with its forever expiry instead of ErrLeaderChanged',
  },
  'register-expiry-on-followers': {
    catalogue: 'D1',
    title: 'follower memory leak: expiry notifier filled on non-primaries',
    links: ['etcd-io/etcd#11495', 'etcd-io/etcd#11731'],
    affected: 'v3.4.0–v3.4.5 (fixed v3.4.6)',
    effect: 'Grant registers the lease in the expiry notifier on every member, primary or not',
  },
  'expiry-queue-uses-wall-clock': {
    catalogue: 'E1',
    title: 'wall-clock jumps move when leases look due',
    links: ['etcd-io/etcd#12291', 'etcd-io/etcd#12292'],
    affected: 'every v3.4 release (the v3.4 profile has it natively; fixed v3.5.0)',
    effect: 'the expiry and checkpoint queues are keyed on the wall clock while expired() reads the monotonic one',
  },
  'lock-skips-post-wait-check': {
    catalogue: 'H2',
    title: 'Mutex.Lock returns without checking the lease is still held',
    links: ['etcd-io/etcd#11456', 'etcd-io/etcd#11408'],
    affected: 'every v3.4 release (the v3.4 profile has it natively; fixed v3.5.0)',
    effect: 'after waiting for earlier holders, Lock succeeds without re-reading its own key',
  },
} as const satisfies Record<string, BugInfo>;

export type BugName = keyof typeof BUGS;

export const BUG_NAMES = Object.keys(BUGS) as BugName[];

/** The historical bugs a component was built with (proposed fixes are a FixSet, fixes.ts). */
export type BugSet = ReadonlySet<BugName>;

export const NO_BUGS: BugSet = new Set();

export function isBugName(s: string): s is BugName {
  return Object.hasOwn(BUGS, s);
}
