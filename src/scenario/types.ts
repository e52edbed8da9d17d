/**
 * The validated scenario model the simulator consumes. Everything here has been checked by the parser:
 * members exist, lease labels were granted earlier, steps are in time order, defaults are filled in.
 * Times and durations are integer microseconds; TTLs are whole seconds as in etcd's API.
 */
import type { ResumeOrder } from '../cluster/cluster.js';
import type { Micros } from '../clock/time.js';
import type { AlertGroup } from '../signals/alerts/rule.js';
import type { SignalAssertion } from './signal-assertion-types.js';

/** Where a node starts in its source file; `line` and `col` count from 1. */
export interface SourcePos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export interface ScenarioError extends SourcePos {
  readonly message: string;
}

export const PROFILE_NAMES = ['v3.4', 'v3.5'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The lease events `lessor-sim diff` pairs between the simulation and real etcd. */
export const DIFF_EVENT_KINDS = ['grant', 'revoke', 'put', 'renew', 'ttl', 'leases', 'delete', 'error'] as const;
export type DiffEventKind = (typeof DIFF_EVENT_KINDS)[number];

/**
 * A difference from real etcd the file expects `diff` to show (an event outside tolerance, with other
 * values, or seen on one side only), and why. Without one, such an event makes `diff` disagree.
 */
/** The races a scenario can declare, and the model's branches of each. */
export const RACE_BRANCHES = { 'resume-order': ['timers-first', 'input-first'] } as const;
export type RaceName = keyof typeof RACE_BRANCHES;
export const RACE_NAMES = Object.keys(RACE_BRANCHES) as RaceName[];

export interface DeclaredRace {
  readonly race: RaceName;
  readonly reason: string;
  /** Line of the declaration, so `diff` can point at it. */
  readonly line: number;
}

export interface ExpectedDifference {
  readonly kind: DiffEventKind;
  /** The event's subject as `diff` prints it: a lease label, a key, "L1 (c1)", "keepalive-once L1". */
  readonly subject: string;
  /** Only the nth event of that kind and subject (from 1); every one when absent. */
  readonly nth?: number;
  readonly reason: string;
  /** Line of the declaration, so `diff` can point at it. */
  readonly line: number;
}

/** `n1`..`nN`; `n1` is the first leader. */
export type MemberName = string;
/** A client process: `c1`, `writer-2` (`[a-z][a-z0-9-]*`). */
export type ClientName = string;
/** A program under test, as `serve --app NAME=CMD` names it (`app` for `serve FILE -- CMD`). */
export type AppName = string;
/** The name a scenario gives a lease when granting it. */
export type LeaseLabel = string;
/** The name a step gives its request's answer (`as: NAME`). */
export type AnswerName = string;

export interface ScenarioCluster {
  readonly members: number;
  /** --heartbeat-interval */
  readonly heartbeatUs: Micros;
  /** --election-timeout */
  readonly electionTimeoutUs: Micros;
  /** --experimental-enable-lease-checkpoint */
  readonly leaseCheckpoint: boolean;
  /** --experimental-enable-lease-checkpoint-persist */
  readonly leaseCheckpointPersist: boolean;
  /** LessorConfig.CheckpointInterval */
  readonly checkpointIntervalUs: Micros;
  readonly revokeRatePerSecond: number;
  /** One-way peer and client network delay. */
  readonly latencyUs: Micros;
  /** Extra delay before a member acknowledges an append. */
  readonly fsyncUs: Micros;
  /** Upper bound of a uniform extra one-way delay. */
  readonly jitterUs: Micros;
  /** Probability in [0, 1) that a peer message is lost. */
  readonly lossProbability: number;
  /** e.g. `3.6.0`; undefined leaves the profile's own version. */
  readonly clusterVersion?: string;
  readonly preVote: boolean;
  /** LessorConfig.ExpiredLeasesRetryInterval; undefined means derive etcd's ReqTimeout(). */
  readonly expiredLeaseRetryUs?: Micros;
  /** --snapshot-count: applied entries between snapshots (which save the consistent index). */
  readonly snapshotCount: number;
  /** --initial-election-tick-advance */
  readonly initialElectionTickAdvance: boolean;
  /** What a member resumed from SIGSTOP does first (ClusterConfig.resumeOrder). */
  readonly resumeOrder: ResumeOrder;
}

export interface IntRange {
  readonly min?: number;
  readonly max?: number;
}

interface StepBase<K extends string> {
  readonly kind: K;
  readonly atUs: Micros;
  readonly pos: SourcePos;
}

/** `via` is the member that receives the client request; undefined means the current leader. */
export interface GrantStep extends StepBase<'grant'> {
  readonly lease: LeaseLabel;
  readonly ttlSeconds: number;
  readonly id?: bigint;
  /** Extension: ask for the ID of the lease this earlier label names (etcd's leaseExist probe). */
  readonly idOf?: LeaseLabel;
  readonly via?: MemberName;
  /** Extension: sent by this scenario client (clientv3) rather than by etcdctl. */
  readonly client?: ClientName;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
export interface GrantManyStep extends StepBase<'grant-many'> {
  /** Labels are `${prefix}1` .. `${prefix}${count}`. */
  readonly prefix: string;
  readonly count: number;
  readonly ttlSeconds: number;
  readonly via?: MemberName;
  /** Grants are spaced evenly over this span, starting at `atUs`. */
  readonly spreadUs: Micros;
}
export interface RevokeStep extends StepBase<'revoke'> {
  readonly lease: LeaseLabel;
  readonly via?: MemberName;
  /** Extension: sent by this scenario client (clientv3) rather than by etcdctl. */
  readonly client?: ClientName;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
export interface PutStep extends StepBase<'put'> {
  readonly key: string;
  readonly value: string;
  readonly lease?: LeaseLabel;
  /** Extension: a raw lease ID (one never granted, as etcd's tests use); not with `lease`. */
  readonly leaseId?: bigint;
  readonly via?: MemberName;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
export interface DeleteStep extends StepBase<'delete'> {
  readonly key: string;
  readonly via?: MemberName;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
/** A Txn compare's operator, as etcdctl writes it. */
export type CompareOp = '=' | '!=' | '>' | '<';

/**
 * One compare of a `txn` step: the key (every key of [key, rangeEnd) with `rangeEnd`), an operator,
 * and exactly one operand, whose field names the target (etcd's target_union): version, create, mod,
 * value, or lease (a label, or a raw ID in leaseId).
 */
export interface TxnCompareSpec {
  readonly key: string;
  readonly rangeEnd?: string;
  readonly result: CompareOp;
  readonly version?: number;
  readonly create?: number;
  readonly mod?: number;
  readonly value?: string;
  readonly lease?: LeaseLabel;
  readonly leaseId?: bigint;
}

/** One op of a `txn` step's branch: a get, a put, a delete, or a nested txn. */
export type TxnOpSpec =
  | {
      readonly op: 'get';
      readonly key: string;
      readonly rangeEnd?: string;
      readonly limit?: number;
      readonly revision?: number;
      readonly keysOnly?: boolean;
      readonly countOnly?: boolean;
    }
  | {
      readonly op: 'put';
      readonly key: string;
      readonly value: string;
      readonly lease?: LeaseLabel;
      readonly leaseId?: bigint;
      readonly prevKv?: boolean;
      readonly ignoreValue?: boolean;
      readonly ignoreLease?: boolean;
    }
  | { readonly op: 'delete'; readonly key: string; readonly rangeEnd?: string; readonly prevKv?: boolean }
  | ({ readonly op: 'txn' } & TxnSpec);

/** A Txn: if every compare holds, `success` runs, else `failure`. */
export interface TxnSpec {
  readonly compare: readonly TxnCompareSpec[];
  readonly success: readonly TxnOpSpec[];
  readonly failure: readonly TxnOpSpec[];
}

/** Extension: etcd's Compact (etcdctl compaction): drop the keyspace's history before `revision`. */
export interface CompactStep extends StepBase<'compact'> {
  readonly revision: number;
  readonly via?: MemberName;
  readonly as?: AnswerName;
}

/** Extension: one etcd Txn through the KV API (sent over gRPC by the real-etcd driver). */
export interface TxnStep extends StepBase<'txn'>, TxnSpec {
  readonly via?: MemberName;
  /** Names the request's answer for `expect: { answer: NAME, succeeded, responses }`. */
  readonly as?: AnswerName;
}

export interface KeepaliveStep extends StepBase<'keepalive'> {
  readonly lease: LeaseLabel;
  readonly client: ClientName;
  readonly via?: MemberName;
  /** Extension: the caller's context carries clientv3.WithRequireLeader. */
  readonly requireLeader?: boolean;
  /**
   * Extension: names this KeepAlive call: its channel (a separate one, beside any other on the lease) for
   * `keepalive-cancel` and `expect: { channel }`, and its first response as an answer.
   */
  readonly as?: AnswerName;
  /** Extension: nobody reads the channel, which buffers this many responses (LeaseResponseChSize). */
  readonly unreadBuffer?: number;
}
export interface KeepaliveStopStep extends StepBase<'keepalive-stop'> {
  readonly lease: LeaseLabel;
  readonly client: ClientName;
}
/** Exactly one of `lease` and `leaseId` is set. */
export interface KeepaliveOnceStep extends StepBase<'keepalive-once'> {
  readonly lease?: LeaseLabel;
  /** Extension: a raw lease ID (one never granted, as etcd's tests use). */
  readonly leaseId?: bigint;
  readonly via?: MemberName;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
/** Extension: the caller cancels the context of a named KeepAlive call. */
export interface KeepaliveCancelStep extends StepBase<'keepalive-cancel'> {
  readonly channel: AnswerName;
}
/** Extension: the scenario client is closed (clientv3 Client.Close). */
export interface ClientCloseStep extends StepBase<'client-close'> {
  readonly client: ClientName;
}
/** Exactly one of `member`, `client` and `app` is set. */
export interface PauseStep extends StepBase<'pause'> {
  readonly member?: MemberName;
  readonly client?: ClientName;
  /** Extension: a program under test (serve FILE -- CMD), SIGSTOPped as a process group. */
  readonly app?: AppName;
  readonly forUs?: Micros;
}
/** Exactly one of `member`, `client` and `app` is set. */
export interface ResumeStep extends StepBase<'resume'> {
  readonly member?: MemberName;
  readonly client?: ClientName;
  readonly app?: AppName;
}
/** Extension: one loop of a member hangs while the rest keeps serving (a leader stuck in fsync). */
export interface StallStep extends StepBase<'stall'> {
  readonly member: MemberName;
  readonly loop: 'raft' | 'apply';
  readonly forUs?: Micros;
}
/** Extension: ends a stall. */
export interface UnstallStep extends StepBase<'unstall'> {
  readonly member: MemberName;
  readonly loop: 'raft' | 'apply';
}
export interface CrashStep extends StepBase<'crash'> {
  readonly member: MemberName;
}
/** Exactly one of `member` and `app` is set. */
export interface RestartStep extends StepBase<'restart'> {
  readonly member?: MemberName;
  /** Extension: a program under test, killed if it runs and started again with the same command. */
  readonly app?: AppName;
}
/** Extension: a program under test is killed (SIGKILL to its process group). */
export interface KillStep extends StepBase<'kill'> {
  readonly app: AppName;
}
/** Extension: a program's connections to these members (default: all) are black-holed until `heal`. */
export interface CutStep extends StepBase<'cut'> {
  readonly app: AppName;
  readonly from?: readonly MemberName[];
}
export interface TransferLeaderStep extends StepBase<'transfer-leader'> {
  readonly to: MemberName;
}
/** Every member is in exactly one group. */
export interface PartitionStep extends StepBase<'partition'> {
  readonly groups: readonly (readonly MemberName[])[];
}
/** Without `app`: removes every partition. With `app`: ends every cut of that program. */
export interface HealStep extends StepBase<'heal'> {
  readonly app?: AppName;
}
/** Exactly one of `member` and `client` is set. */
export interface ClockStep extends StepBase<'clock'> {
  readonly member?: MemberName;
  readonly client?: ClientName;
  /** Signed jump of the member's wall clock. */
  readonly jumpUs: Micros;
}
export interface TimeToLiveStep extends StepBase<'timetolive'> {
  readonly lease: LeaseLabel;
  readonly via?: MemberName;
  readonly keys: boolean;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
export interface LeasesStep extends StepBase<'leases'> {
  readonly via?: MemberName;
  /** Names the request's answer for `expect: { answer: NAME }`. */
  readonly as?: AnswerName;
}
/** What `lock` and `trylock` share: the mutex, its client, and the session it runs on. */
interface MutexStepFields {
  /** Mutex prefix, e.g. `/locks/payment`. */
  readonly name: string;
  readonly client: ClientName;
  /** TTL of the session the step creates for itself (absent: NewSession's default, 60 s); none with `session`. */
  readonly sessionTtlSeconds?: number;
  /** An earlier `session` step's name: the mutex runs on that session instead of a new one. */
  readonly session?: string;
  /** The member the client connects to when this step is its first use. */
  readonly via?: MemberName;
  /** Names the call's answer: success, or the error it returned (ErrLocked, ErrSessionExpired …). */
  readonly as?: AnswerName;
}
export interface LockStep extends StepBase<'lock'>, MutexStepFields {}
/** Extension: Mutex.TryLock (3.5): one attempt; another owner → ErrLocked. */
export interface TrylockStep extends StepBase<'trylock'>, MutexStepFields {}
/** Extension: concurrency.NewSession: a lease (granted, or an earlier one) kept alive by the client. */
export interface SessionStep extends StepBase<'session'> {
  /** The session's name; also the label of the lease it grants, when it grants one. */
  readonly name: string;
  readonly client: ClientName;
  /** WithTTL, in whole seconds (default 60). */
  readonly ttlSeconds: number;
  /** WithLease: the label of an earlier grant the session keeps alive instead of granting its own. */
  readonly lease?: LeaseLabel;
  readonly via?: MemberName;
  /** Names NewSession's answer (its grant's error, if any). */
  readonly as?: AnswerName;
}
/** Extension: Session.Close (orphan, then revoke) or Session.Orphan (stop renewing, no revoke). */
export interface SessionCloseStep extends StepBase<'session-close'> {
  readonly session: string;
  /** Names the answer of Close's revoke. */
  readonly as?: AnswerName;
}
export interface SessionOrphanStep extends StepBase<'session-orphan'> {
  readonly session: string;
}
/** Extension: Election.Campaign on the session: become a candidate with the value, answered once elected. */
export interface CampaignStep extends StepBase<'campaign'> {
  /** The election's prefix without the trailing slash. */
  readonly election: string;
  readonly session: string;
  readonly value: string;
  readonly as?: AnswerName;
}
/** Extension: Election.Resign: the session's candidate withdraws (its key is deleted). */
export interface ResignStep extends StepBase<'resign'> {
  readonly election: string;
  readonly session: string;
  readonly as?: AnswerName;
}
/** Extension: Election.Observe on the session: records each leader value it reports. */
export interface ObserveStep extends StepBase<'observe'> {
  readonly election: string;
  readonly session: string;
}
export interface UnlockStep extends StepBase<'unlock'> {
  readonly name: string;
  readonly client: ClientName;
  /** The mutex of that name on this named session (a client may hold one per session). */
  readonly session?: string;
  /** Names Unlock's answer (the Delete's). */
  readonly as?: AnswerName;
}
export interface FencedWriteStep extends StepBase<'fenced-write'> {
  readonly client: ClientName;
  readonly resource: string;
  /** The lock whose fencing token (revision) the client presents. */
  readonly lock: string;
}
/** Extension: an application process holding `key` through a lease (src/holder/). */
export interface HolderStep extends StepBase<'holder'> {
  readonly name: string;
  /** A built-in strategy, or `user:<name>` for a holder the caller passes to the async replay. */
  readonly strategy: string;
  readonly key: string;
  readonly ttlSeconds: number;
  readonly client: ClientName;
  readonly writesPerSecond: number;
  readonly marginUs: Micros;
  readonly intervalUs?: Micros;
  /** How often the holder asks TimeToLive for its lease (the `lease_ttl_remaining_seconds` gauge); never if absent. */
  readonly ttlCheckIntervalUs?: Micros;
  readonly resource: string;
  /** `lower`: reject tokens below the highest accepted; `strict`: the runbook's SQL, reject equal ones too. */
  readonly fence: 'lower' | 'strict';
  readonly via?: MemberName;
}
export interface ExpectStep extends StepBase<'expect'> {
  readonly assertion: Assertion;
}

export type Step =
  | GrantStep
  | GrantManyStep
  | RevokeStep
  | PutStep
  | DeleteStep
  | TxnStep
  | CompactStep
  | KeepaliveStep
  | KeepaliveStopStep
  | KeepaliveOnceStep
  | KeepaliveCancelStep
  | ClientCloseStep
  | PauseStep
  | ResumeStep
  | CrashStep
  | StallStep
  | UnstallStep
  | RestartStep
  | KillStep
  | CutStep
  | TransferLeaderStep
  | PartitionStep
  | HealStep
  | ClockStep
  | TimeToLiveStep
  | LeasesStep
  | LockStep
  | TrylockStep
  | SessionStep
  | SessionCloseStep
  | SessionOrphanStep
  | UnlockStep
  | CampaignStep
  | ResignStep
  | ObserveStep
  | FencedWriteStep
  | HolderStep
  | ExpectStep;

export type StepKind = Step['kind'];

interface AssertionBase<F extends string> {
  readonly form: F;
  readonly pos: SourcePos;
}

/** Linearizable read on the leader, or serializable read on `via`. */
export interface KeyExistsAssertion extends AssertionBase<'key-exists'> {
  readonly key: string;
  readonly exists: boolean;
  readonly via?: MemberName;
}
export interface KeyValueAssertion extends AssertionBase<'key-value'> {
  readonly key: string;
  readonly value: string;
  readonly via?: MemberName;
}
/** Extension: bounds on the key's create revision. */
export interface KeyCreateRevisionAssertion extends AssertionBase<'key-create-revision'> {
  readonly key: string;
  readonly createRevision: IntRange;
  readonly via?: MemberName;
}
/** Extension: bounds on the key's version (puts since it was created). */
export interface KeyVersionAssertion extends AssertionBase<'key-version'> {
  readonly key: string;
  readonly version: IntRange;
  readonly via?: MemberName;
}
/** Extension: a named KeepAlive call's channel is open / closed, and how many responses it holds. */
export interface KeepaliveChannelAssertion extends AssertionBase<'keepalive-channel'> {
  readonly channel: AnswerName;
  readonly alive?: boolean;
  readonly responses?: IntRange;
  /** The error that closed the channel, by the simulation's name (answer-errors.ts); implies closed. */
  readonly error?: string;
}
/** Bounds on the key's mod revision. */
export interface KeyRevisionAssertion extends AssertionBase<'key-revision'> {
  readonly key: string;
  readonly revision: IntRange;
  readonly via?: MemberName;
}
/** LeaseTimeToLive finds the lease / answers TTL -1. */
export interface LeaseExistsAssertion extends AssertionBase<'lease-exists'> {
  readonly lease: LeaseLabel;
  readonly exists: boolean;
  readonly via?: MemberName;
}
export interface LeaseTtlAssertion extends AssertionBase<'lease-ttl'> {
  readonly lease: LeaseLabel;
  readonly ttlSeconds: IntRange;
  readonly via?: MemberName;
}
/** LeaseTimeToLive with keys lists exactly these keys, in any order. */
export interface LeaseKeysAssertion extends AssertionBase<'lease-keys'> {
  readonly lease: LeaseLabel;
  readonly keys: readonly string[];
  readonly via?: MemberName;
}
/** The member is leader and its lessor is primary. */
export interface LeaderAssertion extends AssertionBase<'leader'> {
  readonly member: MemberName;
}
export interface KeepaliveAliveAssertion extends AssertionBase<'keepalive-alive'> {
  readonly lease: LeaseLabel;
  readonly client: ClientName;
  readonly alive: boolean;
}
export interface LockHeldAssertion extends AssertionBase<'lock-held'> {
  readonly lock: string;
  readonly client: ClientName;
  readonly held: boolean;
}
/** Extension: the mutex of that name on the named session holds / does not hold the lock (the client's belief). */
export interface SessionLockHeldAssertion extends AssertionBase<'session-lock-held'> {
  readonly lock: string;
  readonly session: string;
  readonly held: boolean;
}
/** Extension: a linearizable read finds the election's leader (its first-created key) holding this value. */
export interface ElectionLeaderAssertion extends AssertionBase<'election-leader'> {
  readonly election: string;
  readonly leaderValue: string;
}
/** Extension: the session's Observe of the election has reported exactly these values, in order. */
export interface ElectionObservedAssertion extends AssertionBase<'election-observed'> {
  readonly election: string;
  readonly session: string;
  readonly observed: readonly string[];
}
/** Extension: the number of keys under the lock's prefix, one per session holding or waiting for it. */
export interface LockContendersAssertion extends AssertionBase<'lock-contenders'> {
  readonly lock: string;
  readonly contenders: number;
}
/** Extension: the session's keep-alive has ended (Session.Done is closed) / has not. */
export interface SessionDoneAssertion extends AssertionBase<'session-done'> {
  readonly session: string;
  readonly done: boolean;
}
export interface ResourceAcceptedAssertion extends AssertionBase<'resource-accepted'> {
  readonly resource: string;
  readonly accepted: number;
}
export interface ResourceRejectedAssertion extends AssertionBase<'resource-rejected'> {
  readonly resource: string;
  readonly rejected: number;
}
/** The holder believes / does not believe, at this instant, that it holds its lock. */
export interface HolderActingAssertion extends AssertionBase<'holder-acting'> {
  readonly holder: string;
  readonly acting: boolean;
}
/** Bounds (µs) on how long so far the holder believed it held the lock after its lease was revoked. */
export interface HolderAfterLossAssertion extends AssertionBase<'holder-after-loss'> {
  readonly holder: string;
  readonly afterLossUs: IntRange;
}
/** The resource accepted exactly this many of the holder's writes offered on a revoked lease. */
export interface HolderStaleAcceptedAssertion extends AssertionBase<'holder-stale-accepted'> {
  readonly holder: string;
  readonly staleAccepted: number;
}
/** Bounds (µs) on how long so far two or more holders believed they held the lock at once. */
export interface HoldersOverlapAssertion extends AssertionBase<'holders-overlap'> {
  readonly overlapUs: IntRange;
}
/** Bounds on the current revision (on the leader, or on `via`). */
export interface RevisionAssertion extends AssertionBase<'revision'> {
  readonly revision: IntRange;
  readonly via?: MemberName;
}
/** LeaseLeases (on the leader, or on `via`) lists this many leases. */
export interface LeasesCountAssertion extends AssertionBase<'leases-count'> {
  readonly count: number;
  readonly via?: MemberName;
}

/**
 * Extension: the answer to a named request. Without `error` the request must have succeeded; every
 * other field given must match what the answer carried.
 */
export interface AnswerAssertion extends AssertionBase<'answer'> {
  readonly answer: AnswerName;
  /** The error by the simulation's name (answer-errors.ts maps etcd's names to it). */
  readonly error?: string;
  readonly ttlSeconds?: IntRange;
  readonly grantedTtlSeconds?: IntRange;
  readonly id?: bigint;
  /** The answer's lease ID is this label's. */
  readonly lease?: LeaseLabel;
  /** LeaseLeases listed exactly these leases, in this order. */
  readonly leases?: readonly LeaseLabel[];
  /** A TimeToLive answer listed exactly these keys, in any order. */
  readonly keys?: readonly string[];
  readonly revision?: IntRange;
  /** A Txn answer: whether its compares held. */
  readonly succeeded?: boolean;
  /** A Txn answer: what each op of the branch taken returned, in order. */
  readonly responses?: readonly TxnOpExpect[];
  /** From sending the request to its answer, at most this long. */
  readonly withinUs?: Micros;
  readonly tookUs?: IntRange;
}

/** A key-value a Txn get answers with; only the fields given are checked. */
export interface KvExpect {
  readonly key: string;
  readonly value?: string;
  readonly version?: number;
  readonly create?: number;
  readonly mod?: number;
  readonly lease?: LeaseLabel;
  readonly leaseId?: bigint;
}

/** What one op of a Txn answered; only the fields given are checked. */
export interface TxnOpExpect {
  /** The op's own header revision (a nested txn's is 0 in etcd). */
  readonly revision?: IntRange;
  /** A get's key-values, exactly these in this order. */
  readonly kvs?: readonly KvExpect[];
  readonly count?: number;
  readonly more?: boolean;
  /** A delete's count. */
  readonly deleted?: number;
  /** A nested txn's outcome and op answers. */
  readonly succeeded?: boolean;
  readonly responses?: readonly TxnOpExpect[];
}

/** Extension: bounds on the number of entries in a member's lessor expiry queue. */
export interface ExpiryQueueAssertion extends AssertionBase<'expiry-queue'> {
  readonly member: MemberName;
  readonly entries: IntRange;
}

export type Assertion =
  | KeyExistsAssertion
  | KeyValueAssertion
  | KeyRevisionAssertion
  | KeyCreateRevisionAssertion
  | KeyVersionAssertion
  | LeaseExistsAssertion
  | LeaseTtlAssertion
  | LeaseKeysAssertion
  | LeaderAssertion
  | KeepaliveAliveAssertion
  | KeepaliveChannelAssertion
  | LockHeldAssertion
  | SessionLockHeldAssertion
  | LockContendersAssertion
  | ElectionLeaderAssertion
  | ElectionObservedAssertion
  | SessionDoneAssertion
  | ResourceAcceptedAssertion
  | ResourceRejectedAssertion
  | RevisionAssertion
  | LeasesCountAssertion
  | AnswerAssertion
  | ExpiryQueueAssertion
  | SignalAssertion
  | HolderActingAssertion
  | HolderAfterLossAssertion
  | HolderStaleAcceptedAssertion
  | HoldersOverlapAssertion;

export type AssertionForm = Assertion['form'];

export interface Scenario {
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly author?: string;
  readonly tags: readonly string[];
  readonly profile: ProfileName;
  readonly seed: number;
  readonly cluster: ScenarioCluster;
  /** Historical etcd bugs switched on, by name. */
  readonly bugs: readonly string[];
  /** Extension: proposed fixes switched on, by name (src/switches/fixes.ts). */
  readonly fixes?: readonly string[];
  /** Extension: differences from real etcd that `diff` should accept, each with its reason. */
  readonly expectedDifferences?: readonly ExpectedDifference[];
  /** Extension: races of etcd the file's outcome depends on; `diff` runs the simulation down each branch. */
  readonly races?: readonly DeclaredRace[];
  readonly steps: readonly Step[];
  /** Alerting rules evaluated on the run's signals. */
  readonly alerts?: AlertGroup;
  /** Virtual time the simulation runs until. */
  readonly durationUs: Micros;
}
