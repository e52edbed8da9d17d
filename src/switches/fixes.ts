/**
 * Proposed fixes: the dual of bug switches. Each finding class is behaviour the model shows in etcd as
 * it is (a property campaign with no bug switch finds it); its fix switch changes the model the way etcd
 * would have to change so that the class cannot happen. Off by default; scenario files name them in
 * `fixes: [...]`, and `lessor-sim check` replays a shrunk counterexample with each one on to name the
 * class of a violation. docs/findings/<class>.md tells each story with the etcd source behind it.
 */
export interface FixInfo {
  /** The finding class this fix removes; its page is docs/findings/<class>.md. */
  readonly finding: string;
  readonly title: string;
  /** etcd issues that report or discuss the class. */
  readonly links: readonly string[];
  /** Profiles in which the class happens. */
  readonly profiles: readonly ('v3.4' | 'v3.5')[];
  /** What the switch changes in the model, in one sentence. */
  readonly effect: string;
}

/**
 * A violation several fixes remove is named after the first (`check` lists the rest). The three fixes
 * of the classes campaigns as etcd is find most come first: replayed as generated, a run can hold
 * another instance that a later fix's changed timing happens to hide (seed 5 runs 2166, 4606).
 */
export const FIXES = {
  'lease-reads-confirm-leadership': {
    finding: 'stale-leader-answers-lease-reads',
    title: 'a leader that lost its term answers TimeToLive and forwarded renewals from its own lessor',
    links: ['etcd-io/etcd#15247'],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'LeaseTimeToLive on a member that believes it leads, and the peer /leases and /leases/internal handlers, ' +
      'first confirm leadership with a ReadIndex round, else refuse (ErrLeaderChanged, or a retryable HTTP error)',
  },
  'renew-rechecks-primary': {
    finding: 'renew-acknowledged-after-demotion',
    title: 'a renewal whose clearing checkpoint spans a demotion is acknowledged by a non-primary',
    links: ['etcd-io/etcd#13491'],
    profiles: ['v3.4', 'v3.5'],
    effect: 'Renew checks it is still primary after the clearing checkpoint returns, and answers ErrNotPrimary if not',
  },
  'confirm-leadership-by-read-index': {
    finding: 'resumed-leader-acts-on-stale-tick',
    title: 'a frozen leader, resumed, revokes and checkpoints on the strength of one stale tick',
    links: ['etcd-io/etcd#18428', 'etcd-io/etcd#15247'],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'revoke, checkpoint and renew on the leader always confirm leadership with a ReadIndex round (no ' +
      'isActive shortcut), in every profile; the revoke and checkpoint proposals are dropped, not forwarded, ' +
      'once the confirmed term is over, and a renewal is acknowledged only after a confirmation that follows it',
  },
  'reschedule-skipped-checkpoint': {
    finding: 'checkpoint-dropped-for-renewed-lease',
    title: 'a due checkpoint skipped because the lease was just renewed or promoted is never rescheduled',
    links: ['etcd-io/etcd#9924', 'etcd-io/etcd#13491'],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'findDueScheduledCheckpoints schedules the next checkpoint of a lease whose due one it skips ' +
      '(ceil(remaining) ≥ TTL), instead of dropping it from the checkpoint heap',
  },
  'run-loop-does-not-wait-for-checkpoint': {
    finding: 'lost-checkpoint-blocks-run-loop',
    title: 'a checkpoint proposal lost in a leader change holds the lessor run loop for ReqTimeout',
    links: [],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'the run loop proposes its scheduled checkpoints and goes on without waiting for them to apply ' +
      '(the clearing checkpoint of Renew still waits)',
  },
  'promote-on-own-term-entry': {
    finding: 'promotion-on-earlier-term-entry',
    title: "a leader whose apply loop lags its election promotes on an earlier term's empty entry",
    links: ['etcd-io/etcd#6570'],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'applyEntryNormal promotes the lessor on an empty entry only when the entry is of the current term ' +
      "(the new leader's own), so every entry of earlier terms is applied first",
  },
  'renew-clears-inflight-checkpoint': {
    finding: 'checkpoint-applied-after-renewal',
    title: 'a scheduled checkpoint proposed before a renewal and applied after it restores the old remaining TTL',
    links: ['etcd-io/etcd#13491'],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'Renew also proposes its clearing checkpoint when a scheduled checkpoint of the lease is in flight, ' +
      'so the clearing entry follows the stale one in the log',
  },
  'renew-rechecks-expiry': {
    finding: 'renewal-outruns-pending-revoke',
    title:
      'a lease that expires during the clearing checkpoint of its renewal is renewed while its revoke is on its way',
    links: ['etcd-io/etcd#13491'],
    profiles: ['v3.4', 'v3.5'],
    effect:
      'after the clearing checkpoint returns, Renew checks again whether the lease has expired and, if so, ' +
      'waits for its revoke (or a demotion) as a renewal of an expired lease does',
  },
} as const satisfies Record<string, FixInfo>;

export type FixName = keyof typeof FIXES;

export const FIX_NAMES = Object.keys(FIXES) as FixName[];

/** The proposed fixes a component was built with. */
export type FixSet = ReadonlySet<FixName>;

export const NO_FIXES: FixSet = new Set();

export function isFixName(s: string): s is FixName {
  return Object.hasOwn(FIXES, s);
}
