import { ErrLeaseNotFound } from '../../lessor/errors.js';
import { MvccError } from '../mvcc/index.js';
import type { ClientRequest, ClientResponse, ResponseHeader, RpcError, TxnRequest } from './api.js';
import type { ApplyResult } from './applier.js';
import { toRpcError } from './errors.js';
import { isTxnReadonly, KvApplier } from './kv-apply.js';
import { checkDeleteRequest, checkPutRequest, checkRangeRequest, checkTxn } from './kv-check.js';
import type { RaftRequestBody } from './raft-request.js';
import type { EtcdServer } from './etcd-server.js';
import { leaseTimeToLive } from './lease-ops.js';
import { linearizableRead } from './linearizable-read.js';

/** Serves one unary client RPC on member `s`: writes through raft, reads local or linearizable. */
export function serveUnary(s: EtcdServer, req: ClientRequest, reply: (r: ClientResponse | RpcError) => void): void {
  switch (req.op) {
    case 'LeaseGrant': {
      // The receiving member allocates the ID when the client sends 0.
      const id = req.id !== 0n ? req.id : s.allocateLeaseId();
      return s.raftRequest({ type: 'LeaseGrant', id, ttl: req.ttl }, (r) =>
        reply(
          r.ok && r.value.op === 'LeaseGrant'
            ? { op: 'LeaseGrant', id: r.value.id, ttl: r.value.ttl, header: writeHeader(s, r) }
            : toRpcError(failure(r)),
        ),
      );
    }
    case 'LeaseRevoke':
      return s.raftRequest({ type: 'LeaseRevoke', id: req.id }, (r) =>
        reply(r.ok ? { op: 'LeaseRevoke', header: writeHeader(s, r) } : toRpcError(failure(r))),
      );
    case 'LeaseTimeToLive':
      return leaseTimeToLive(s, req.id, req.keys, (r) => {
        if (r.ok) return reply({ op: 'LeaseTimeToLive', id: req.id, ...r.body, header: s.header() });
        // Not found is a normal answer with TTL -1.
        if (r.err === ErrLeaseNotFound)
          return reply({ op: 'LeaseTimeToLive', id: req.id, ttl: -1, grantedTTL: 0, keys: [], header: s.header() });
        reply(toRpcError(r.err));
      });
    case 'LeaseLeases':
      // Served from the local lessor: not forwarded, no read index.
      return reply({ op: 'LeaseLeases', ids: s.lessor.leases().map((l) => l.id), header: s.header() });
    case 'Put': {
      const err = checkPutRequest(req);
      if (err !== undefined) return reply(toRpcError(err));
      return write(s, { type: 'Put', put: req }, 'Put', reply);
    }
    case 'DeleteRange': {
      const err = checkDeleteRequest(req);
      if (err !== undefined) return reply(toRpcError(err));
      return write(s, { type: 'DeleteRange', deleteRange: req }, 'DeleteRange', reply);
    }
    case 'Txn': {
      const err = checkTxn(req);
      if (err !== undefined) return reply(toRpcError(err));
      if (!isTxnReadonly(req)) return write(s, { type: 'Txn', txn: req }, 'Txn', reply);
      // etcd answers a read-only Txn locally, after a read index unless every Range is serializable.
      const answer = (): void => {
        const r = local(() => new KvApplier(s.store, s.lessor).txn(req));
        if ('code' in r) return reply(r);
        const { revision, ...body } = r;
        reply({ op: 'Txn', ...body, header: { ...s.header(), revision } });
      };
      if (isTxnSerializable(req)) return answer();
      return linearizableRead(s, (e) => (e === undefined ? answer() : reply(toRpcError(e))));
    }
    case 'Compaction':
      return write(s, { type: 'Compaction', revision: req.revision }, 'Compaction', reply);
    case 'Range': {
      const err = checkRangeRequest(req);
      if (err !== undefined) return reply(toRpcError(err));
      const answer = (): void => {
        const r = local(() => new KvApplier(s.store, s.lessor).range(req));
        if ('code' in r) return reply(r);
        const { revision, ...body } = r;
        reply({ op: 'Range', ...body, header: { ...s.header(), revision } });
      };
      if (req.serializable === true) return answer();
      return linearizableRead(s, (e) => (e === undefined ? answer() : reply(toRpcError(e))));
    }
  }
}

/** Proposes a write and answers with the applied value of the expected kind, or the error. */
function write<K extends 'Put' | 'DeleteRange' | 'Txn' | 'Compaction'>(
  s: EtcdServer,
  body: RaftRequestBody,
  op: K,
  reply: (r: ClientResponse | RpcError) => void,
): void {
  s.raftRequest(body, (r) => {
    if (!r.ok || r.value.op !== op) return reply(toRpcError(failure(r)));
    reply({ ...r.value, header: writeHeader(s, r) } as ClientResponse);
  });
}

/** Runs a local read, turning mvcc's errors (ErrCompacted, ErrFutureRev) into the RPC's error. */
function local<T>(f: () => T): T | RpcError {
  try {
    return f();
  } catch (e) {
    if (e instanceof MvccError) return toRpcError(e);
    throw e;
  }
}

/** isTxnSerializable: every op of both branches is a serializable Range. */
function isTxnSerializable(r: TxnRequest): boolean {
  return [...r.success, ...r.failure].every((op) => op.op === 'Range' && op.serializable === true);
}

/** A write's header carries the revision the write applied at, not whatever is current when it is sent. */
function writeHeader(s: EtcdServer, r: ApplyResult): ResponseHeader {
  return { ...s.header(), revision: r.ok ? r.revision : s.store.currentRevision };
}

function failure(r: { ok: boolean; err?: unknown }): Parameters<typeof toRpcError>[0] {
  if (r.ok) throw new Error('server: apply returned a value of the wrong kind');
  return r.err as Parameters<typeof toRpcError>[0];
}
