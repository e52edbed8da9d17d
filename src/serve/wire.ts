/**
 * etcd's wire shapes as @grpc/proto-loader hands them over (int64 as decimal strings, bytes as base64, enums
 * by name) and back: keys and values, headers, key-values, gRPC status codes. Keys travel as latin1 strings
 * inside the model, so every byte survives the round trip.
 */
import { status } from '@grpc/grpc-js';
import type {
  Compare,
  CompareResult,
  CompareTarget,
  DeleteRangeBody,
  DeleteRangeRequest,
  PutRequest,
  RangeBody,
  RangeRequest,
  RequestOp,
  ResponseHeader,
  ResponseOp,
  RpcCode,
  RpcError,
  SortOrder,
  SortTarget,
  TxnBody,
  TxnRequest,
  WatchCreateRequest,
  WatchFilterType,
  WatchRequest,
  WatchResponse,
} from '../cluster/server/api.js';
import type { KeyValue } from '../cluster/mvcc/index.js';
import type { ClusterIds } from './ids.js';

/** A decoded protobuf message: plain JSON. */
export type Json = { readonly [field: string]: unknown };

export const keyOf = (b64: unknown): string =>
  Buffer.from(typeof b64 === 'string' ? b64 : '', 'base64').toString('latin1');
export const bytesOf = (s: string): string => Buffer.from(s, 'latin1').toString('base64');
export const int = (v: unknown): number => {
  const n = typeof v === 'string' || typeof v === 'number' ? Number(v) : 0;
  return Number.isFinite(n) ? n : 0;
};
/** An int64 as proto-loader hands it over; anything else (a hand-edited record) is 0, never a throw. */
export const big = (v: unknown): bigint =>
  typeof v === 'string' && /^-?\d{1,20}$/.test(v) ? BigInt(v) : Number.isSafeInteger(v) ? BigInt(v as number) : 0n;

export function headerOf(ids: ClusterIds, h: ResponseHeader): Json {
  return {
    cluster_id: ids.clusterId,
    member_id: ids.memberId(h.memberId),
    revision: String(h.revision),
    raft_term: String(h.raftTerm),
  };
}

export function kvOf(kv: KeyValue, keysOnly = false): Json {
  return {
    key: bytesOf(kv.key),
    create_revision: String(kv.createRevision),
    mod_revision: String(kv.modRevision),
    version: String(kv.version),
    value: keysOnly ? '' : bytesOf(kv.value),
    lease: String(kv.lease),
  };
}

/** A gRPC status as the server ends a call with it. */
export interface WireError {
  readonly code: number;
  readonly message: string;
}

const CODES: Readonly<Record<RpcCode, number>> = {
  InvalidArgument: status.INVALID_ARGUMENT,
  Unavailable: status.UNAVAILABLE,
  NotFound: status.NOT_FOUND,
  FailedPrecondition: status.FAILED_PRECONDITION,
  OutOfRange: status.OUT_OF_RANGE,
  Unknown: status.UNKNOWN,
  DeadlineExceeded: status.DEADLINE_EXCEEDED,
  Canceled: status.CANCELLED,
  ResourceExhausted: status.RESOURCE_EXHAUSTED,
};

export const wireError = (e: RpcError): WireError => ({ code: CODES[e.code], message: e.message });

/** rpctypes.ErrGRPCNotLeader: MoveLeader sent to a member that does not lead. */
export const NOT_LEADER: WireError = { code: status.FAILED_PRECONDITION, message: 'etcdserver: not leader' };

/** rpctypes.ErrGRPCBadLeaderTransferee: MoveLeader to an ID that is not a member. */
export const BAD_LEADER_TRANSFEREE: WireError = {
  code: status.FAILED_PRECONDITION,
  message: 'etcdserver: bad leader transferee',
};

/** An alarm activation: the model has no alarm store, so there is nothing it could raise. */
export const NO_ALARMS: WireError = {
  code: status.UNIMPLEMENTED,
  message: 'lessor-sim serve: the model has no alarms to activate',
};

/** rpctypes.ErrGRPCAuthNotEnabled: etcdctl and clientv3 carry on without a token when they see it. */
export const AUTH_NOT_ENABLED: WireError = {
  code: status.FAILED_PRECONDITION,
  message: 'etcdserver: authentication is not enabled',
};

const optNum = (v: unknown): number | undefined => (int(v) !== 0 ? int(v) : undefined);

/** Only the fields that are set, so the model sees etcd's "unset" as absent. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== false)) as T;
}

export function rangeOf(r: Json): RangeRequest {
  return defined({
    op: 'Range',
    key: keyOf(r.key),
    rangeEnd: keyOf(r.range_end) || undefined,
    limit: optNum(r.limit),
    revision: optNum(r.revision),
    sortOrder: r.sort_order !== 'NONE' ? (r.sort_order as SortOrder | undefined) : undefined,
    sortTarget: r.sort_target !== 'KEY' ? (r.sort_target as SortTarget | undefined) : undefined,
    serializable: r.serializable === true,
    keysOnly: r.keys_only === true,
    countOnly: r.count_only === true,
    minModRevision: optNum(r.min_mod_revision),
    maxModRevision: optNum(r.max_mod_revision),
    minCreateRevision: optNum(r.min_create_revision),
    maxCreateRevision: optNum(r.max_create_revision),
  }) as RangeRequest;
}

export function putOf(r: Json): PutRequest {
  return {
    ...defined({
      prevKv: r.prev_kv === true,
      ignoreValue: r.ignore_value === true,
      ignoreLease: r.ignore_lease === true,
    }),
    op: 'Put',
    key: keyOf(r.key),
    value: keyOf(r.value),
    lease: big(r.lease),
  };
}

export function deleteOf(r: Json): DeleteRangeRequest {
  return defined({
    op: 'DeleteRange',
    key: keyOf(r.key),
    rangeEnd: keyOf(r.range_end) || undefined,
    prevKv: r.prev_kv === true,
  }) as DeleteRangeRequest;
}

function compareOf(c: Json): Compare {
  const base = {
    key: keyOf(c.key),
    result: (c.result as CompareResult | undefined) ?? 'EQUAL',
    ...defined({ rangeEnd: keyOf(c.range_end) || undefined }),
  };
  // proto3 oneof: the operand is the field named by target_union; unset compares against zero.
  const set = (field: string): boolean => c.target_union === field;
  switch ((c.target as CompareTarget | undefined) ?? 'VERSION') {
    case 'VERSION':
      return { ...base, target: 'VERSION', ...(set('version') ? { version: int(c.version) } : {}) };
    case 'CREATE':
      return {
        ...base,
        target: 'CREATE',
        ...(set('create_revision') ? { createRevision: int(c.create_revision) } : {}),
      };
    case 'MOD':
      return { ...base, target: 'MOD', ...(set('mod_revision') ? { modRevision: int(c.mod_revision) } : {}) };
    case 'VALUE':
      return { ...base, target: 'VALUE', ...(set('value') ? { value: keyOf(c.value) } : {}) };
    case 'LEASE':
      return { ...base, target: 'LEASE', ...(set('lease') ? { lease: big(c.lease) } : {}) };
  }
}

function requestOpOf(o: Json): RequestOp | undefined {
  switch (o.request) {
    case 'request_range':
      return rangeOf(o.request_range as Json);
    case 'request_put':
      return putOf(o.request_put as Json);
    case 'request_delete_range':
      return deleteOf(o.request_delete_range as Json);
    case 'request_txn':
      return txnOf(o.request_txn as Json);
    default:
      return undefined;
  }
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export function txnOf(r: Json): TxnRequest {
  const ops = (v: unknown): RequestOp[] => list(v).flatMap((o) => requestOpOf(o) ?? []);
  return { op: 'Txn', compare: list(r.compare).map(compareOf), success: ops(r.success), failure: ops(r.failure) };
}

export const rangeBodyOf = (b: RangeBody): Json => ({
  kvs: b.kvs.map((kv) => kvOf(kv)),
  more: b.more,
  count: String(b.count),
});

export const putBodyOf = (b: { readonly prevKv?: KeyValue }): Json =>
  b.prevKv !== undefined ? { prev_kv: kvOf(b.prevKv) } : {};

export const deleteBodyOf = (b: DeleteRangeBody): Json => ({
  deleted: String(b.deleted),
  prev_kvs: (b.prevKvs ?? []).map((kv) => kvOf(kv)),
});

export const txnBodyOf = (b: TxnBody): Json => ({ succeeded: b.succeeded, responses: b.responses.map(responseOpOf) });

/** A nested response: its header carries only the revision, as etcd fills it. */
function responseOpOf(o: ResponseOp): Json {
  const header = { revision: String(o.revision) };
  switch (o.op) {
    case 'Range':
      return { response_range: { header, ...rangeBodyOf(o) } };
    case 'Put':
      return { response_put: { header, ...putBodyOf(o) } };
    case 'DeleteRange':
      return { response_delete_range: { header, ...deleteBodyOf(o) } };
    case 'Txn':
      return { response_txn: { header, ...txnBodyOf(o) } };
  }
}

/** A WatchRequest's oneof as the model's request; undefined for an empty one (etcd ignores it too). */
export function watchRequestOf(r: Json): WatchRequest | undefined {
  if (r.request_union === 'create_request') {
    const c = r.create_request as Json;
    return defined({
      op: 'WatchCreate',
      key: keyOf(c.key),
      rangeEnd: keyOf(c.range_end) || undefined,
      startRevision: optNum(c.start_revision),
      progressNotify: c.progress_notify === true,
      filters: list(c.filters).length > 0 ? (c.filters as WatchFilterType[]) : undefined,
      prevKv: c.prev_kv === true,
      watchId: optNum(c.watch_id),
      fragment: c.fragment === true,
    }) as WatchCreateRequest;
  }
  if (r.request_union === 'cancel_request')
    return { op: 'WatchCancel', watchId: int((r.cancel_request as Json).watch_id) };
  if (r.request_union === 'progress_request') return { op: 'WatchProgress' };
  return undefined;
}

export function watchResponseOf(ids: ClusterIds, r: WatchResponse): Json {
  return {
    header: headerOf(ids, r.header),
    watch_id: String(r.watchId),
    created: r.created,
    canceled: r.canceled,
    compact_revision: String(r.compactRevision),
    cancel_reason: r.cancelReason,
    fragment: r.fragment,
    events: r.events.map((e) => ({
      type: e.type,
      kv: kvOf(e.kv),
      ...(e.prevKv !== undefined ? { prev_kv: kvOf(e.prevKv) } : {}),
    })),
  };
}
