import type { IdKey } from '../../lessor/lease-id.js';
import type { KeyValue, WatchEvent } from '../mvcc/index.js';

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

/** A Range as the mutex needs it: one key, a prefix, or the first/last created key under a prefix. */
export interface RangeRequest {
  readonly op: 'Range';
  readonly key: string;
  readonly prefix?: boolean;
  /** With prefix: only the key with the smallest create revision (clientv3.WithFirstCreate). */
  readonly firstCreated?: boolean;
  /** With prefix: the key with the largest create revision ≤ this (WithLastCreate + WithMaxCreateRev). */
  readonly lastCreatedAtMost?: number;
  /** Serializable: answered from this member's store without a linearizable read. */
  readonly serializable?: boolean;
}

export interface PutRequest {
  readonly op: 'Put';
  readonly key: string;
  readonly value: string;
  readonly lease: bigint;
}

export interface DeleteRangeRequest {
  readonly op: 'DeleteRange';
  readonly key: string;
}

/** A compare on a key's create revision, the only compare the Mutex uses. */
export interface TxnCompare {
  readonly key: string;
  readonly createRevision: number;
}

export type TxnOp = RangeRequest | PutRequest | DeleteRangeRequest;

export interface TxnRequest {
  readonly op: 'Txn';
  /** All must hold (create revision equals) for `success` to run; otherwise `failure` runs. */
  readonly compare: readonly TxnCompare[];
  readonly success: readonly TxnOp[];
  readonly failure: readonly TxnOp[];
}

export type ClientRequest =
  | { readonly op: 'LeaseGrant'; readonly ttl: number /** 0 lets the member allocate one */; readonly id: bigint }
  | { readonly op: 'LeaseRevoke'; readonly id: bigint }
  | { readonly op: 'LeaseTimeToLive'; readonly id: bigint; readonly keys: boolean }
  | { readonly op: 'LeaseLeases' }
  | RangeRequest
  | PutRequest
  | DeleteRangeRequest
  | TxnRequest;

export type OpResponse =
  | { readonly op: 'Range'; readonly kvs: readonly KeyValue[] }
  | { readonly op: 'Put'; readonly revision: number }
  | { readonly op: 'DeleteRange'; readonly deleted: number };

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
  | { readonly op: 'Range'; readonly kvs: readonly KeyValue[] }
  | { readonly op: 'Put'; readonly prevLease: bigint }
  | { readonly op: 'DeleteRange'; readonly deleted: number }
  | { readonly op: 'Txn'; readonly succeeded: boolean; readonly responses: readonly OpResponse[] }
);

/** gRPC status codes the lease and KV paths produce. */
export type RpcCode =
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
  /**
   * `key` is `idKey(id)` when the caller has it at hand: it rides along with the request and comes back
   * with the response, so the lessor's and the client's maps are looked up without converting the ID.
   */
  send(id: bigint, key?: IdKey): void;
  /** Client-side cancel: the server stops handling and nothing more is delivered. */
  close(): void;
}

export interface KeepAliveHandlers {
  /** `key` is the request's `idKey(r.id)` when the request carried it. */
  onResponse(r: KeepAliveResponse, key?: IdKey): void;
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
  /** etcd's `hasleader` metadata (clientv3.WithRequireLeader): the member cancels the stream with ErrNoLeader when it loses its leader. Default false, as etcd. */
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
