import { Process } from '../../../src/clock/process.js';
import { seconds } from '../../../src/clock/time.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import {
  isRpcError,
  type ClientRequest,
  type ClientResponse,
  type RpcError,
  type WatchRequest,
  type WatchResponse,
} from '../../../src/cluster/server/api.js';

type Resp<K extends ClientResponse['op']> = Extract<ClientResponse, { op: K }>;

/** A one-member cluster with a leader, and helpers that run KV requests and Watch streams to completion. */
export function kvHarness(members = 1) {
  const c = new Cluster({ members });
  const t = c.connect('c1', new Process('c1', c.sched));
  c.runUntil(seconds(1));
  const settle = (): void => c.runUntil(c.now() + 200_000);
  const call = (req: ClientRequest, to = 'n1'): ClientResponse | RpcError => {
    let out: ClientResponse | RpcError | undefined;
    t.unary(to, req, (r) => (out = r));
    const end = c.now() + 10_000_000;
    while (out === undefined && c.now() < end) c.runUntil(c.now() + 1000);
    if (out === undefined) throw new Error(`no answer to ${req.op}`);
    return out;
  };
  /** The response of kind `op`, or a thrown error naming what came instead. */
  const ok = <K extends ClientResponse['op']>(op: K, req: ClientRequest, to = 'n1'): Resp<K> => {
    const r = call(req, to);
    if (isRpcError(r) || r.op !== op) throw new Error(`expected ${op}, got ${JSON.stringify(r, bigints)}`);
    return r as Resp<K>;
  };
  const put = (key: string, value = '', lease = 0n) => ok('Put', { op: 'Put', key, value, lease });
  const del = (key: string, rangeEnd?: string) =>
    ok('DeleteRange', { op: 'DeleteRange', key, ...(rangeEnd !== undefined ? { rangeEnd } : {}) });
  const grant = (ttl: number): bigint => ok('LeaseGrant', { op: 'LeaseGrant', ttl, id: 0n }).id;
  /** Opens a Watch stream on `to`; `got` collects its responses, `send` sends and settles. */
  const watch = (to = 'n1') => {
    const got: WatchResponse[] = [];
    const errors: RpcError[] = [];
    const w = c
      .connect(`w${c.now()}`, new Process(`w${c.now()}`, c.sched))
      .openWatch(to, { onResponse: (r) => got.push(r), onError: (e) => errors.push(e) });
    return {
      got,
      errors,
      send: (req: WatchRequest) => {
        w.send(req);
        settle();
      },
      close: () => w.close(),
    };
  };
  return { c, call, ok, put, del, grant, watch, settle };
}

export const bigints = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? `${v}n` : v);
