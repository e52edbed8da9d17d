import { Process } from '../../../src/clock/process.js';
import type { Micros } from '../../../src/clock/time.js';
import { Cluster, type ClusterConfig } from '../../../src/cluster/cluster.js';
import {
  isRpcError,
  type ClientRequest,
  type ClientResponse,
  type ClusterTransport,
  type RpcError,
} from '../../../src/cluster/server/api.js';

/** A cluster plus one raw client transport, with a helper that runs a request to completion. */
export function clusterHarness(cfg: Partial<ClusterConfig> = {}) {
  const c = new Cluster(cfg);
  const t: ClusterTransport = c.connect('c1', new Process('c1', c.sched));
  /** Sends `req` to `to` and runs the clock until the answer arrives (or `limit` µs pass). */
  const call = (to: string, req: ClientRequest, limit: Micros = 10_000_000): ClientResponse | RpcError | undefined => {
    let out: ClientResponse | RpcError | undefined;
    t.unary(to, req, (r) => (out = r));
    const end = c.now() + limit;
    while (out === undefined && c.now() < end) c.runUntil(Math.min(end, c.now() + 1000));
    return out;
  };
  const grant = (ttl: number, via = 'n1'): bigint => {
    const r = call(via, { op: 'LeaseGrant', ttl, id: 0n });
    if (r === undefined || isRpcError(r) || r.op !== 'LeaseGrant')
      throw new Error(`grant failed: ${JSON.stringify(r)}`);
    return r.id;
  };
  return { c, t, call, grant };
}
