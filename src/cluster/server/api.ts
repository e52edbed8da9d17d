import type { KeyValue, KvEvent, WatchEvent } from '../mvcc/index.js';

/**
 * The client-facing API of a simulated etcd member: the lease, KV and watch RPCs clientv3 uses, as plain
 * data. Requests and responses travel over the simulated network as 'client' traffic.
 */

/** etcd's etcdserverpb.ResponseHeader: filled by the member that answers. */
export interface ResponseHeader {
  readonly memberId: string;
  readonly revision: number;
  readonly raftTerm: number;
}

/** etcd's RangeRequest.SortOrder; NONE keeps key order (etcd then sorts ASCEND when the target is not KEY). */
export type SortOrder = 'NONE' | 'ASCEND' | 'DESCEND';
/** etcd's RangeRequest.SortTarget. */
export type SortTarget = 'KEY' | 'VERSION' | 'CREATE' | 'MOD' | 'VALUE';

/**
 * etcd's RangeRequest. Keys are strings compared by UTF-16 code unit: a front end that decodes etcd's
 * byte keys as latin1 (one code unit per byte) keeps etcd's byte order. `rangeEnd` is etcd's range_end:
 * absent or '' for the single key `key`, '\0' for every key ≥ `key`, else the half-open [key, rangeEnd).
 * int64 fields are numbers; 0 or absent means etcd's unset.
 */
export interface RangeRequest {
  readonly op: 'Range';
  readonly key: string;
  readonly rangeEnd?: string;
  /** Most keys returned; 0 is no limit. */
  readonly limit?: number;
  /** Read the keyspace as it was at this revision; 0 is the current one. */
  readonly revision?: number;
  readonly sortOrder?: SortOrder;
  readonly sortTarget?: SortTarget;
  /** Serializable: answered from this member's store without a linearizable read. */
  readonly serializable?: boolean;
  readonly keysOnly?: boolean;
  readonly countOnly?: boolean;
  readonly minModRevision?: number;
  readonly maxModRevision?: number;
  readonly minCreateRevision?: number;
  readonly maxCreateRevision?: number;
  /**
   * The project's own shorthands for what clientv3's options build (kept for the Mutex and Election):
   * `prefix` is WithPrefix (rangeEnd = the prefix's end); with it, `firstCreated` is WithFirstCreate and
   * `lastCreatedAtMost` is WithLastCreate + WithMaxCreateRev. Not combined with rangeEnd.
   */
  readonly prefix?: boolean;
  readonly firstCreated?: boolean;
  readonly lastCreatedAtMost?: number;
}

/** etcd's PutRequest. `lease` 0n is no lease. */
export interface PutRequest {
  readonly op: 'Put';
  readonly key: string;
  readonly value: string;
  readonly lease: bigint;
  readonly prevKv?: boolean;
  /** Keep the key's current value (the key must exist; `value` must be empty). */
  readonly ignoreValue?: boolean;
  /** Keep the key's current lease (the key must exist; `lease` must be 0n). */
  readonly ignoreLease?: boolean;
}

/** etcd's DeleteRangeRequest; `rangeEnd` as in RangeRequest. */
export interface DeleteRangeRequest {
  readonly op: 'DeleteRange';
  readonly key: string;
  readonly rangeEnd?: string;
  readonly prevKv?: boolean;
}

/** etcd's Compare.CompareResult. */
export type CompareResult = 'EQUAL' | 'GREATER' | 'LESS' | 'NOT_EQUAL';
/** etcd's Compare.CompareTarget. */
export type CompareTarget = 'VERSION' | 'CREATE' | 'MOD' | 'VALUE' | 'LEASE';

/**
 * etcd's Compare: `result` relates the key's field (left) to the given operand (right). With `rangeEnd`
 * every key in the range must hold. The operand field matches the target (etcd's target_union); an
 * absent operand compares against 0 (or the empty value), as etcd does with an unset union.
 */
export type Compare = {
  readonly key: string;
  readonly rangeEnd?: string;
  readonly result: CompareResult;
} & (
  | { readonly target: 'VERSION'; readonly version?: number }
  | { readonly target: 'CREATE'; readonly createRevision?: number }
  | { readonly target: 'MOD'; readonly modRevision?: number }
  | { readonly target: 'VALUE'; readonly value?: string }
  | { readonly target: 'LEASE'; readonly lease?: bigint }
);

/** The name the project's client library has used for a compare. */
export type TxnCompare = Compare;

/** etcd's RequestOp: one operation of a Txn, a nested Txn included. */
export type RequestOp = RangeRequest | PutRequest | DeleteRangeRequest | TxnRequest;
export type TxnOp = RequestOp;

/** etcd's TxnRequest: if every compare holds, `success` runs, else `failure`. */
export interface TxnRequest {
  readonly op: 'Txn';
  readonly compare: readonly Compare[];
  readonly success: readonly RequestOp[];
  readonly failure: readonly RequestOp[];
}

/** etcd's CompactionRequest: drop history before `revision`. `physical` waits for the backend's compaction. */
export interface CompactionRequest {
  readonly op: 'Compaction';
  readonly revision: number;
  readonly physical?: boolean;
}

export type ClientRequest =
  | { readonly op: 'LeaseGrant'; readonly ttl: number /** 0 lets the member allocate one */; readonly id: bigint }
  | { readonly op: 'LeaseRevoke'; readonly id: bigint }
  | { readonly op: 'LeaseTimeToLive'; readonly id: bigint; readonly keys: boolean }
  | { readonly op: 'LeaseLeases' }
  | RangeRequest
  | PutRequest
  | DeleteRangeRequest
  | TxnRequest
  | CompactionRequest;

/** RangeResponse's body: `count` is how many keys the range held before `limit` (etcd's count). */
export interface RangeBody {
  readonly kvs: readonly KeyValue[];
  readonly more: boolean;
  readonly count: number;
}

/** PutResponse's body. `prevLease` is the project's own (the key's lease before the put, 0n if none). */
export interface PutBody {
  readonly prevLease: bigint;
  /** With `prevKv` on the request: the key before the put, absent if it did not exist. */
  readonly prevKv?: KeyValue;
}

export interface DeleteRangeBody {
  readonly deleted: number;
  /** With `prevKv` on the request: the deleted keys (empty when none). */
  readonly prevKvs?: readonly KeyValue[];
}

export interface TxnBody {
  readonly succeeded: boolean;
  readonly responses: readonly ResponseOp[];
}

/**
 * etcd's ResponseOp. A nested response's header carries only a revision (etcd fills the cluster, member
 * and term of the top-level header alone): `revision` is that nested header's revision.
 */
export type ResponseOp = { readonly revision: number } & (
  | ({ readonly op: 'Range' } & RangeBody)
  | ({ readonly op: 'Put' } & Omit<PutBody, 'prevLease'>)
  | ({ readonly op: 'DeleteRange' } & DeleteRangeBody)
  | ({ readonly op: 'Txn' } & TxnBody)
);
export type OpResponse = ResponseOp;

export type ClientResponse = { readonly header: ResponseHeader } & (
  | { readonly op: 'LeaseGrant'; readonly id: bigint; readonly ttl: number }
  | { readonly op: 'LeaseRevoke' }
  /** ttl -1 means not found (etcd answers it as a normal response). */
  | {
      readonly op: 'LeaseTimeToLive';
      readonly id: bigint;
      readonly ttl: number;
      readonly grantedTTL: number;
      readonly keys: readonly string[];
    }
  | { readonly op: 'LeaseLeases'; readonly ids: readonly bigint[] }
  | ({ readonly op: 'Range' } & RangeBody)
  | ({ readonly op: 'Put' } & PutBody)
  | ({ readonly op: 'DeleteRange' } & DeleteRangeBody)
  | ({ readonly op: 'Txn' } & TxnBody)
  | { readonly op: 'Compaction' }
);

/** gRPC status codes the lease and KV paths produce. */
export type RpcCode =
  | 'InvalidArgument'
  | 'Unavailable'
  | 'NotFound'
  | 'FailedPrecondition'
  | 'OutOfRange'
  | 'Unknown'
  | 'DeadlineExceeded'
  | 'Canceled'
  | 'ResourceExhausted';

/**
 * A failed RPC as the client sees it: the gRPC code and etcd's message ("etcdserver: no leader"), plus
 * the server error's name (ErrNoLeader) so tests compare names, never message text.
 */
export interface RpcError {
  readonly code: RpcCode;
  readonly name: string;
  readonly message: string;
}

/** True for an error value (the server's or one the client made itself), false for a response. */
export const isRpcError = (x: unknown): x is RpcError =>
  typeof x === 'object' && x !== null && 'code' in x && 'name' in x && !('header' in x);

/** One LeaseKeepAliveResponse: ttl 0 means the lease is gone (etcd's way of saying not found). */
export interface KeepAliveResponse {
  readonly header: ResponseHeader;
  readonly id: bigint;
  readonly ttl: number;
}

/** The client's end of a LeaseKeepAlive bidirectional stream. */
export interface KeepAliveStream {
  send(id: bigint): void;
  /** Client-side cancel: the server stops handling and nothing more is delivered. */
  close(): void;
}

export interface KeepAliveHandlers {
  onResponse(r: KeepAliveResponse): void;
  /** The stream ended with an error (ErrNoLeader, a server error, the member died or is unreachable). */
  onError(e: RpcError): void;
}

export interface WatchHandlers {
  onEvents(events: readonly WatchEvent[], header: ResponseHeader): void;
  onError(e: RpcError): void;
}

export interface WatchStream {
  close(): void;
}

/** Per-stream options a client's gRPC context carries. */
export interface StreamOptions {
  /**
   * etcd's `hasleader` metadata (clientv3.WithRequireLeader): the member cancels the stream with ErrNoLeader
   * when it loses its leader. Default false, as etcd.
   */
  readonly requireLeader?: boolean;
}

/**
 * How a client reaches the cluster: every call goes to one named member over the simulated network.
 * Callbacks run on the client's own process (held while it is paused, dropped if it is killed). A call
 * to a dead, paused or unreachable member simply gets no answer: the client's own deadlines decide.
 */
export interface ClusterTransport {
  readonly members: readonly string[];
  unary(to: string, req: ClientRequest, cb: (res: ClientResponse | RpcError) => void): void;
  openKeepAlive(to: string, handlers: KeepAliveHandlers, opts?: StreamOptions): KeepAliveStream;
  watch(
    to: string,
    key: string,
    opts: { prefix?: boolean; fromRevision?: number; requireLeader?: boolean },
    handlers: WatchHandlers,
  ): WatchStream;
}

/** etcd's WatchCreateRequest.FilterType: NOPUT drops PUT events, NODELETE drops DELETE events. */
export type WatchFilterType = 'NOPUT' | 'NODELETE';

/** etcd's WatchCreateRequest; `rangeEnd` as in RangeRequest. */
export interface WatchCreateRequest {
  readonly op: 'WatchCreate';
  readonly key: string;
  readonly rangeEnd?: string;
  /** First revision to report; 0 or absent is the revision after the current one. */
  readonly startRevision?: number;
  /** Ask for empty responses carrying the current revision while the watch is idle. */
  readonly progressNotify?: boolean;
  readonly filters?: readonly WatchFilterType[];
  /** Each event carries the key as it was before the change. */
  readonly prevKv?: boolean;
  /** A client-chosen ID (0 or absent: the server assigns the next free one). */
  readonly watchId?: number;
  /** Split large revisions over several responses (accepted; responses here are never split). */
  readonly fragment?: boolean;
}

export interface WatchCancelRequest {
  readonly op: 'WatchCancel';
  readonly watchId: number;
}

/** Ask for a progress notification on every watch of the stream (answered with watch ID -1). */
export interface WatchProgressRequest {
  readonly op: 'WatchProgress';
}

/** etcd's WatchRequest: what the client sends on a Watch stream. */
export type WatchRequest = WatchCreateRequest | WatchCancelRequest | WatchProgressRequest;

/** etcd's WatchResponse; int64 fields as numbers, cancelReason '' when none. */
export interface WatchResponse {
  readonly header: ResponseHeader;
  readonly watchId: number;
  readonly created: boolean;
  readonly canceled: boolean;
  /** Set on a watch canceled because its start revision was compacted: the compaction's revision. */
  readonly compactRevision: number;
  readonly cancelReason: string;
  readonly fragment: boolean;
  readonly events: readonly KvEvent[];
}

export interface WatchStreamHandlers {
  onResponse(r: WatchResponse): void;
  /** The stream ended with an error (the member died, is unreachable, or lost its leader). */
  onError(e: RpcError): void;
}

/** The client's end of one Watch bidirectional stream (etcd's Watch RPC), many watches on it. */
export interface WatchRequestStream {
  send(req: WatchRequest): void;
  /** Client-side cancel of the whole stream. */
  close(): void;
}

/** Opens etcd-shaped Watch streams on a member: what a gRPC front end drives. */
export interface WatchStreamTransport {
  /** `requireLeader`: end the stream when the member loses its leader (clientv3's WithRequireLeader). */
  openWatch(to: string, handlers: WatchStreamHandlers, opts?: { readonly requireLeader?: boolean }): WatchRequestStream;
}
