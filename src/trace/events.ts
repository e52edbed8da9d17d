/**
 * Every trace event kind and its fields, typed. Times and durations are µs numbers (formatted only when
 * a line is printed, by trace.ts); fields keep the order the emitter writes them, which is the order a
 * line prints them. A kind is named by its subsystem: lease-/lessor- (the lessor), raft-, kv- (mvcc),
 * server-, member-/net- (the cluster's faults), client- (clientv3), ctl- (etcdctl) and the harness's own.
 */
import type { Micros } from '../clock/time.js';

type Empty = Readonly<Record<never, never>>;
type Keys = readonly string[];

export interface TraceFields {
  // ---- lessor ----
  'lease-grant': { readonly ttl: number; readonly expiry: Micros };
  'lease-revoke': { readonly keys: Keys };
  'lease-checkpoint': { readonly remaining: number };
  'lease-attach': { readonly keys: Keys };
  'lease-detach': { readonly keys: Keys };
  'lease-renew-wait': Empty;
  'lease-renew': { readonly ttl: number; readonly expiry: Micros };
  /** `extend` is the election-timeout extension every lease gets; `spread` how many were spread. */
  'lessor-promote': { readonly extend: Micros; readonly leases: number; readonly spread: number };
  'lease-promoted': { readonly remaining: number; readonly expiry: Micros };
  'lessor-demote': { readonly leases: number };
  'lease-expired': { readonly expiry: Micros };
  'lessor-expired-dropped': { readonly count: number };
  'lessor-checkpoint-propose': { readonly count: number };
  // ---- server ----
  'server-checkpoint-refused': { readonly count: number };
  'server-expired-revoke': { readonly ok: boolean; readonly err?: string };
  'server-expired-revoke-skipped': { readonly count: number };
  /** A snapshot at raft index `index`: it saves the consistent index (what v3.4 re-applies from on restart). */
  'server-snapshot': { readonly index: number };
  /** adjustTicks at start: the raft node fast-forwarded `ticks` election ticks (`peers`: active peers seen). */
  'server-tick-advance': { readonly ticks: number; readonly peers: number };
  // ---- raft ----
  'raft-transfer': { readonly to: string };
  'raft-term': { readonly term: number };
  'raft-step-down': { readonly reason: string };
  'raft-role': { readonly role: string; readonly term: number };
  'raft-leader': { readonly leader: string; readonly term: number };
  // ---- mvcc ----
  'kv-put': { readonly key: string; readonly rev: number; readonly lease: bigint };
  'kv-delete': { readonly key: string; readonly rev: number };
  'kv-detach-failed': { readonly key: string };
  'kv-restore-attach-failed': { readonly key: string };
  // ---- cluster faults ----
  'net-partition': { readonly groups: readonly (readonly string[])[] };
  'net-heal': Empty;
  'member-crash': Empty;
  'member-restart': Empty;
  'member-pause': Empty;
  /** `order`: what the resumed member did first (Cluster's resume order). */
  'member-resume': { readonly order: 'timers-first' | 'input-first' };
  'member-stall': { readonly loop: string };
  'member-unstall': { readonly loop: string };
  'member-clock-jump': { readonly delta: Micros };
  // ---- clientv3 ----
  'client-grant': { readonly ttl: number; readonly endpoint: string };
  'client-close': Empty;
  'client-pause': Empty;
  'client-resume': Empty;
  'client-failover': { readonly from: string; readonly to: string; readonly reason: string };
  'client-rpc-timeout': { readonly op: string; readonly endpoint: string };
  'client-rpc-error': {
    readonly op: string;
    readonly endpoint: string;
    readonly error: string;
    readonly attempt: number;
    readonly retry: boolean;
  };
  'client-session-start': { readonly ttl: number };
  'client-session-done': { readonly reason: string };
  'client-keepalive-start': { readonly requireLeader: boolean };
  'client-keepalive-stream-open': { readonly endpoint: string };
  'client-keepalive-stream-error': { readonly endpoint: string; readonly error: string };
  'client-keepalive-send': { readonly endpoint: string };
  'client-keepalive-recv': { readonly ttl: number };
  'client-keepalive-closed': { readonly reason: string };
  'client-keepalive-once-send': { readonly endpoint: string };
  'client-keepalive-once-recv': { readonly endpoint: string; readonly ttl: number };
  'client-keepalive-once-error': { readonly endpoint: string; readonly error: string };
  'client-watch-error': { readonly key: string; readonly endpoint: string; readonly error: string };
  'client-lock-waiting': { readonly name: string; readonly rev: number };
  'client-lock-acquired': { readonly name: string; readonly rev: number };
  'client-lock-failed': { readonly name: string; readonly rev: number; readonly error: string };
  'client-unlock': { readonly name: string; readonly rev: number };
  /** An Election.Campaign won (`rev`: the candidate key's create revision). */
  'client-elected': { readonly name: string; readonly rev: number };
  /** An Election.Observe reported this leader value. */
  'client-observed': { readonly name: string; readonly value: string };
  'client-fenced-write': { readonly resource: string; readonly token: number; readonly accepted: boolean };
  /** A client's own clock jumped (its wall and monotonic clocks), by `delta`. */
  'client-clock-jump': { readonly delta: Micros };
  /** A scenario client's step that could not act (no lock held, no fencing token, a failed session). */
  'client-error': { readonly op: string; readonly name?: string; readonly lock?: string; readonly err: string };
  // ---- lock holders: what a holder believes (under the holder's name) ----
  'holder-acquired': { readonly key: string; readonly token: number; readonly ttl?: number };
  'holder-acquire-failed': { readonly key: string; readonly err?: string; readonly held?: boolean };
  'holder-renewed': { readonly ttl: number };
  /** A deadline holder's self-imposed end of acting, on the virtual clock. */
  'holder-deadline': { readonly untilUs: Micros };
  /** A signal that may mean loss, and what the strategy made of it (`lost`, `retry`, `still-held`). */
  'holder-noticed': {
    readonly signal: string;
    readonly verdict: string;
    readonly ttl?: number;
    readonly timetolive?: string | number;
  };
  /** `lateUs`: how long after its lease was really revoked it stopped. */
  /** A holder's periodic TimeToLive while it holds the lock: the TTL left (−1: not found), or the error. */
  'holder-ttl': { readonly ttl?: number; readonly err?: string };
  'holder-stop': { readonly reason: string; readonly lateUs?: Micros };
  'holder-failed': { readonly error: string; readonly at?: string };
  // ---- lock holders: what the cluster did (truth) ----
  'holder-owns': { readonly key: string; readonly by: string };
  'holder-revoked': { readonly by: string };
  // ---- etcdctl and the harness ----
  'ctl-granted': { readonly label: string; readonly ttl: number };
  'ctl-ok': CtlAnswer;
  'ctl-error': { readonly op: string; readonly label?: string; readonly key?: string; readonly err: string };
  /** The answer to a request a step named (`as: NAME`): its error, if any, and how long it took. */
  'ctl-answer': { readonly name: string; readonly op: string; readonly err?: string; readonly took: Micros };
  // ---- serve: real clients' calls (member: the connection's client process, gRPCN) ----
  /** A unary call or a stream opened by a real client, to `to`. */
  'served-call': { readonly call: number; readonly method: string; readonly to: string };
  /** A unary call answered (or failed with `err`), as the client's process received it. */
  'served-answer': { readonly call: number; readonly method: string; readonly err?: string };
  /** A fault clicked on `serve --playground`'s live view, injected at this instant (member: sim). */
  'served-fault': { readonly action: string; readonly member?: string };
  // ---- serve: programs under test (member: the program's name) ----
  /** A program started (`command`: shell-quoted), or started again by a restart step. */
  'app-start': { readonly command: string };
  /** One line the program wrote, control characters escaped. */
  'app-output': { readonly stream: 'stdout' | 'stderr'; readonly text: string };
  /** It ended: its exit code or the signal that ended it; `by: harness` when a step or the run's end did. */
  'app-exit': { readonly code?: number; readonly signal?: string; readonly by: 'itself' | 'harness' };
  /** A step signalled its process group: SIGSTOP (pause), SIGCONT (resume) or SIGKILL (kill). */
  'app-signal': { readonly signal: string };
  /** A step restarts it: killed if it runs, then started again with the same command. */
  'app-restart': Empty;
  /** Its connections to these members are cut (black-holed), or healed. */
  'app-cut': { readonly from: readonly string[] };
  'app-heal': { readonly to: readonly string[] };
  step: { readonly line: number; readonly action: string };
  'step-error': { readonly op: string; readonly message: string };
  'expect-pass': ExpectOutcome;
  'expect-fail': ExpectOutcome;
}

/** The useful part of an etcdctl answer. */
type CtlAnswer = {
  readonly op: string;
  readonly key?: string;
  readonly ttl?: number;
  readonly grantedTTL?: number;
  readonly deleted?: number;
  readonly revision?: number;
  readonly keys?: Keys;
  /** How many leases a LeaseLeases listed. */
  readonly leases?: number;
  readonly rev?: number;
};

/** An `expect` step's outcome: the assertion in words and what was observed. */
type ExpectOutcome = { readonly line: number; readonly expect: string; readonly got: string };

export type TraceKind = keyof TraceFields;

/** One state change of kind K; it carries its fields unless every field of the kind is optional. */
export type EventOf<K extends TraceKind> = {
  readonly t: Micros;
  /** The process that changed state: a member (n1), a client (c1), or `sim` for the harness. */
  readonly member: string;
  readonly kind: K;
  readonly lease?: bigint;
} & (Empty extends TraceFields[K] ? { readonly fields?: TraceFields[K] } : { readonly fields: TraceFields[K] });

/** A kind's fields as an optional argument: required unless every field of the kind is optional. */
export type FieldsArg<K extends TraceKind> = Empty extends TraceFields[K]
  ? [fields?: TraceFields[K]]
  : [fields: TraceFields[K]];

export type TraceEventMap = { readonly [K in TraceKind]: EventOf<K> };

/** Is `e` of one of the `kinds`? Narrows it to those kinds' events, fields typed. */
export function isKindIn<K extends TraceKind>(
  e: { readonly kind: TraceKind },
  kinds: KindGroup<K>,
): e is TraceEventMap[K] {
  return kinds.has(e.kind as K);
}

/** Is `e` of kind `kind`? Narrows it to that kind's event, for readers that take the kind as a parameter. */
export function isKind<K extends TraceKind>(e: { readonly kind: TraceKind }, kind: K): e is TraceEventMap[K] {
  return e.kind === kind;
}

/** A group of kinds a reader tests events against with `isKindIn`. */
export type KindGroup<K extends TraceKind> = ReadonlySet<K>;

type Prefixed<P extends string> = Extract<TraceKind, `${P}${string}`>;
/** Every kind of a group, listed once: the compiler refuses a list that misses or invents a kind. */
const groupOf = <K extends TraceKind>(all: { readonly [k in K]: true }): KindGroup<K> =>
  new Set(Object.keys(all) as K[]);

/** What clientv3 did, under the client's name. */
export type ClientKind = Prefixed<'client-'>;
export const CLIENT_KINDS = groupOf<ClientKind>({
  'client-grant': true,
  'client-close': true,
  'client-pause': true,
  'client-resume': true,
  'client-failover': true,
  'client-rpc-timeout': true,
  'client-rpc-error': true,
  'client-session-start': true,
  'client-session-done': true,
  'client-keepalive-start': true,
  'client-keepalive-stream-open': true,
  'client-keepalive-stream-error': true,
  'client-keepalive-send': true,
  'client-keepalive-recv': true,
  'client-keepalive-closed': true,
  'client-keepalive-once-send': true,
  'client-keepalive-once-recv': true,
  'client-keepalive-once-error': true,
  'client-watch-error': true,
  'client-lock-waiting': true,
  'client-lock-acquired': true,
  'client-lock-failed': true,
  'client-unlock': true,
  'client-elected': true,
  'client-observed': true,
  'client-fenced-write': true,
  'client-clock-jump': true,
  'client-error': true,
});

/** A KeepAlive channel's life (its stream, requests and responses), not KeepAliveOnce's single calls. */
export type KeepAliveKind = Exclude<Prefixed<'client-keepalive-'>, Prefixed<'client-keepalive-once-'>>;
export const KEEPALIVE_KINDS = groupOf<KeepAliveKind>({
  'client-keepalive-start': true,
  'client-keepalive-stream-open': true,
  'client-keepalive-stream-error': true,
  'client-keepalive-send': true,
  'client-keepalive-recv': true,
  'client-keepalive-closed': true,
});

/** What one lessor did to one lease (lessor-wide events are `lessor-`). */
export type LeaseKind = Prefixed<'lease-'>;
export const LEASE_KINDS = groupOf<LeaseKind>({
  'lease-grant': true,
  'lease-revoke': true,
  'lease-checkpoint': true,
  'lease-attach': true,
  'lease-detach': true,
  'lease-renew-wait': true,
  'lease-renew': true,
  'lease-promoted': true,
  'lease-expired': true,
});

/** A lock holder's beliefs (under its name) and what the cluster did to it (truth). */
export type HolderKind = Prefixed<'holder-'>;
export const HOLDER_KINDS = groupOf<HolderKind>({
  'holder-acquired': true,
  'holder-acquire-failed': true,
  'holder-renewed': true,
  'holder-deadline': true,
  'holder-noticed': true,
  'holder-ttl': true,
  'holder-stop': true,
  'holder-failed': true,
  'holder-owns': true,
  'holder-revoked': true,
});

/** The kinds whose fields name a field `F` (required or optional). */
type KindWith<F extends string> = { readonly [K in TraceKind]: F extends keyof TraceFields[K] ? K : never }[TraceKind];

/** Events that name one key (`key=`): mvcc's writes, holders' locks, a watch's error, etcdctl's answers. */
export type KeyKind = KindWith<'key'>;
export const KEY_KINDS = groupOf<KeyKind>({
  'kv-put': true,
  'kv-delete': true,
  'kv-detach-failed': true,
  'kv-restore-attach-failed': true,
  'client-watch-error': true,
  'holder-acquired': true,
  'holder-acquire-failed': true,
  'holder-owns': true,
  'ctl-ok': true,
  'ctl-error': true,
});

/** The member and network faults a picture of the cluster draws: pauses, crashes, partitions and their ends. */
export type MemberFaultKind =
  | 'member-pause'
  | 'member-resume'
  | 'member-crash'
  | 'member-restart'
  | 'net-partition'
  | 'net-heal';
export const MEMBER_FAULT_KINDS = groupOf<MemberFaultKind>({
  'member-pause': true,
  'member-resume': true,
  'member-crash': true,
  'member-restart': true,
  'net-partition': true,
  'net-heal': true,
});

/** Events that name a list of keys (`keys=`): a lease's attach, detach and revoke, etcdctl's answers. */
export type KeysKind = KindWith<'keys'>;
export const KEYS_KINDS = groupOf<KeysKind>({
  'lease-revoke': true,
  'lease-attach': true,
  'lease-detach': true,
  'ctl-ok': true,
});

/** Events that carry a lease's deadline (`expiry=`): its grant, renewal, promotion and expiry. */
export type ExpiryKind = KindWith<'expiry'>;
export const EXPIRY_KINDS = groupOf<ExpiryKind>({
  'lease-grant': true,
  'lease-renew': true,
  'lease-promoted': true,
  'lease-expired': true,
});

/**
 * An event's lease deadline in µs; undefined for a lease no lessor will expire (a follower's or demoted
 * lessor's copy, which the lessor keeps at FOREVER and the trace writes as +∞, printed `forever`).
 */
export function expiryOf(e: EventOf<ExpiryKind>): Micros | undefined {
  const x = e.fields.expiry;
  return x === Number.POSITIVE_INFINITY ? undefined : x;
}

/** Events that name an etcd error as `err=` (an answer's or a step's). */
export type ErrKind = KindWith<'err'>;
export const ERR_KINDS = groupOf<ErrKind>({
  'server-expired-revoke': true,
  'client-error': true,
  'holder-acquire-failed': true,
  'holder-ttl': true,
  'ctl-error': true,
  'ctl-answer': true,
  'served-answer': true,
});

/** Events that name an error as `error=` (clientv3's RPCs and streams, a holder's failure). */
export type ErrorKind = KindWith<'error'>;
export const ERROR_KINDS = groupOf<ErrorKind>({
  'client-rpc-error': true,
  'client-keepalive-stream-error': true,
  'client-keepalive-once-error': true,
  'client-watch-error': true,
  'client-lock-failed': true,
  'holder-failed': true,
});
