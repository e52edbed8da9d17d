/**
 * etcd's TxnRequest and TxnResponse as @grpc/proto-loader reads src/serve/rpc.proto (snake_case fields,
 * int64 as decimal strings, enums by name, oneofs named): the model's request types in, the scenario's
 * op answers out, so a txn step's answer from real etcd is judged like the model's.
 */
import type { RequestOp, TxnRequest } from '../cluster/server/api.js';
import type { KeyValue } from '../cluster/mvcc/index.js';
import type { TxnOpAnswer } from '../scenario/replay/answers.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');
const rangeEnd = (e: string | undefined): object => (e === undefined ? {} : { range_end: bytes(e) });

/** The raw TxnRequest message. */
export function rawTxn(t: TxnRequest): object {
  return {
    compare: t.compare.map((c) => {
      const operand =
        c.target === 'VERSION'
          ? { version: String(c.version ?? 0) }
          : c.target === 'CREATE'
            ? { create_revision: String(c.createRevision ?? 0) }
            : c.target === 'MOD'
              ? { mod_revision: String(c.modRevision ?? 0) }
              : c.target === 'VALUE'
                ? { value: bytes(c.value ?? '') }
                : { lease: String(c.lease ?? 0n) };
      return { result: c.result, target: c.target, key: bytes(c.key), ...rangeEnd(c.rangeEnd), ...operand };
    }),
    success: t.success.map(rawOp),
    failure: t.failure.map(rawOp),
  };
}

function rawOp(op: RequestOp): object {
  switch (op.op) {
    case 'Range':
      return {
        request_range: {
          key: bytes(op.key),
          ...rangeEnd(op.rangeEnd),
          limit: String(op.limit ?? 0),
          revision: String(op.revision ?? 0),
          keys_only: op.keysOnly === true,
          count_only: op.countOnly === true,
        },
      };
    case 'Put':
      return {
        request_put: {
          key: bytes(op.key),
          value: bytes(op.value),
          lease: op.lease.toString(),
          prev_kv: op.prevKv === true,
          ignore_value: op.ignoreValue === true,
          ignore_lease: op.ignoreLease === true,
        },
      };
    case 'DeleteRange':
      return { request_delete_range: { key: bytes(op.key), ...rangeEnd(op.rangeEnd), prev_kv: op.prevKv === true } };
    case 'Txn':
      return { request_txn: rawTxn(op) };
  }
}

interface RawKv {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly mod_revision: string;
  readonly create_revision: string;
  readonly version: string;
  readonly lease: string;
}
interface RawResponses {
  readonly succeeded: boolean;
  readonly responses: readonly Record<string, unknown>[];
}
type WithHeader = { readonly header: { readonly revision: string } | null };

const kvOf = (kv: RawKv): KeyValue => ({
  key: kv.key.toString('latin1'),
  value: kv.value.toString('latin1'),
  createRevision: Number(kv.create_revision),
  modRevision: Number(kv.mod_revision),
  version: Number(kv.version),
  lease: BigInt(kv.lease),
});
// A nested header etcd never filled in arrives absent or all zero: revision 0.
const rev = (r: WithHeader): number => Number(r.header?.revision ?? 0);

/** The op answers of a raw TxnResponse (or a nested one). */
export function txnAnswers(r: RawResponses): TxnOpAnswer[] {
  return r.responses.map((op): TxnOpAnswer => {
    switch (op.response) {
      case 'response_range': {
        const x = op.response_range as WithHeader & { kvs: RawKv[]; more: boolean; count: string };
        return { op: 'get', revision: rev(x), kvs: x.kvs.map(kvOf), count: Number(x.count), more: x.more };
      }
      case 'response_put':
        return { op: 'put', revision: rev(op.response_put as WithHeader) };
      case 'response_delete_range': {
        const x = op.response_delete_range as WithHeader & { deleted: string };
        return { op: 'delete', revision: rev(x), deleted: Number(x.deleted) };
      }
      default: {
        const x = op.response_txn as WithHeader & RawResponses;
        return { op: 'txn', revision: rev(x), succeeded: x.succeeded, responses: txnAnswers(x) };
      }
    }
  });
}
