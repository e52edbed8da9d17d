/**
 * etcd's wire shapes as @grpc/proto-loader hands them over (int64 as decimal strings, bytes as base64, enums
 * by name) and back: keys and values, headers, key-values, gRPC status codes. Keys travel as latin1 strings
 * inside the model, so every byte survives the round trip.
 */
import { status } from '@grpc/grpc-js';
import type { RangeRequest, ResponseHeader, RpcCode, RpcError } from '../cluster/server/api.js';
import type { KeyValue } from '../cluster/mvcc/index.js';
import type { ClusterIds } from './ids.js';

/** A decoded protobuf message: plain JSON. */
export type Json = { readonly [field: string]: unknown };

export const keyOf = (b64: unknown): string =>
  Buffer.from(typeof b64 === 'string' ? b64 : '', 'base64').toString('latin1');
export const bytesOf = (s: string): string => Buffer.from(s, 'latin1').toString('base64');
export const int = (v: unknown): number => (typeof v === 'string' || typeof v === 'number' ? Number(v) : 0);
export const big = (v: unknown): bigint => (typeof v === 'string' || typeof v === 'number' ? BigInt(v) : 0n);

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

/** rpctypes.ErrGRPCAuthNotEnabled: etcdctl and clientv3 carry on without a token when they see it. */
export const AUTH_NOT_ENABLED: WireError = {
  code: status.FAILED_PRECONDITION,
  message: 'etcdserver: authentication is not enabled',
};
export const EMPTY_KEY: WireError = { code: status.INVALID_ARGUMENT, message: 'etcdserver: key is not provided' };

/** A request the model cannot answer faithfully yet: refused, never answered wrongly. */
export const notModelled = (what: string): WireError => ({
  code: status.UNIMPLEMENTED,
  message: `lessor-sim: ${what} is not modelled`,
});

/**
 * A RangeRequest as the model's prefix read plus the work done on its result: the key range, the
 * revision filters, the sort, the limit, keys_only and count_only. Every key in [key, range_end) shares the
 * common prefix of key and range_end, so the model reads that prefix (all keys for from-key, range_end "\0").
 */
export interface RangePlan {
  readonly model: RangeRequest;
  /** The RangeResponse fields besides the header. */
  answer(kvs: readonly KeyValue[]): Json;
}

const SORT_FIELD: Readonly<Record<string, (kv: KeyValue) => string | number>> = {
  KEY: (kv) => kv.key,
  VERSION: (kv) => kv.version,
  CREATE: (kv) => kv.createRevision,
  MOD: (kv) => kv.modRevision,
  VALUE: (kv) => kv.value,
};

export function planRange(r: Json): RangePlan | WireError {
  const key = keyOf(r.key);
  const end = keyOf(r.range_end);
  if (key === '' && end === '') return EMPTY_KEY;
  if (int(r.revision) !== 0) return notModelled('Range at a past revision');
  const serializable = r.serializable === true ? { serializable: true } : {};
  const fromKey = end === '\0';
  const single = end === '';
  let prefix = '';
  if (!single && !fromKey)
    while (prefix.length < key.length && key[prefix.length] === end[prefix.length]) prefix += key[prefix.length];
  const model: RangeRequest = single
    ? { op: 'Range', key, ...serializable }
    : { op: 'Range', key: prefix, prefix: true, ...serializable };
  const limit = int(r.limit);
  const [minMod, maxMod, minCreate, maxCreate] = [
    int(r.min_mod_revision),
    int(r.max_mod_revision),
    int(r.min_create_revision),
    int(r.max_create_revision),
  ];
  const target = typeof r.sort_target === 'string' ? r.sort_target : 'KEY';
  let order = typeof r.sort_order === 'string' ? r.sort_order : 'NONE';
  // etcd sorts ascending when a target other than the key is named without an order.
  if (order === 'NONE' && target !== 'KEY') order = 'ASCEND';
  return {
    model,
    answer: (all) => {
      const inRange = single ? all : all.filter((kv) => kv.key >= key && (fromKey || kv.key < end));
      let kvs = inRange.filter(
        (kv) =>
          (minMod === 0 || kv.modRevision >= minMod) &&
          (maxMod === 0 || kv.modRevision <= maxMod) &&
          (minCreate === 0 || kv.createRevision >= minCreate) &&
          (maxCreate === 0 || kv.createRevision <= maxCreate),
      );
      if (order !== 'NONE') {
        const f = SORT_FIELD[target] ?? SORT_FIELD.KEY!;
        const sign = order === 'DESCEND' ? -1 : 1;
        // Stable, so equal targets keep key order as etcd's does.
        kvs = [...kvs].sort((a, b) => (f(a) < f(b) ? -sign : f(a) > f(b) ? sign : 0));
      }
      const more = limit > 0 && kvs.length > limit;
      if (limit > 0) kvs = kvs.slice(0, limit);
      return {
        kvs: r.count_only === true ? [] : kvs.map((kv) => kvOf(kv, r.keys_only === true)),
        more,
        count: String(inRange.length),
      };
    },
  };
}
