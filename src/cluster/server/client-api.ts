import { ErrLeaseNotFound } from '../../lessor/errors.js';
import type { ClientRequest, ClientResponse, ResponseHeader, RpcError } from './api.js';
import { rangeBody, rangeKvs, type ApplyResult } from './applier.js';
import { toRpcError } from './errors.js';
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
    case 'Put':
      return s.raftRequest({ type: 'Put', key: req.key, value: req.value, lease: req.lease }, (r) =>
        reply(
          r.ok && r.value.op === 'Put'
            ? { op: 'Put', prevLease: r.value.prevLease, header: writeHeader(s, r) }
            : toRpcError(failure(r)),
        ),
      );
    case 'DeleteRange':
      return s.raftRequest({ type: 'DeleteRange', key: req.key }, (r) =>
        reply(
          r.ok && r.value.op === 'DeleteRange'
            ? { op: 'DeleteRange', deleted: r.value.deleted, header: writeHeader(s, r) }
            : toRpcError(failure(r)),
        ),
      );
    case 'Txn':
      return s.raftRequest({ type: 'Txn', compare: req.compare, success: req.success, failure: req.failure }, (r) =>
        reply(
          r.ok && r.value.op === 'Txn'
            ? { op: 'Txn', succeeded: r.value.succeeded, responses: r.value.responses, header: writeHeader(s, r) }
            : toRpcError(failure(r)),
        ),
      );
    case 'Range': {
      const answer = (): void => reply({ op: 'Range', ...rangeBody(rangeKvs(req, s.store)), header: s.header() });
      if (req.serializable === true) return answer();
      return linearizableRead(s, (err) => (err === undefined ? answer() : reply(toRpcError(err))));
    }
  }
}

/** A write's header carries the revision the write applied at, not whatever is current when it is sent. */
function writeHeader(s: EtcdServer, r: ApplyResult): ResponseHeader {
  return { ...s.header(), revision: r.ok ? r.revision : s.store.currentRevision };
}

function failure(r: { ok: boolean; err?: unknown }): Parameters<typeof toRpcError>[0] {
  if (r.ok) throw new Error('server: apply returned a value of the wrong kind');
  return r.err as Parameters<typeof toRpcError>[0];
}
