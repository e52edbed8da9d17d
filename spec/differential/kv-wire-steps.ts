// The requests kv-wire.spec.ts sends both to a real one-member etcd 3.4.23 and to the model, and the
// model's side of the run. Answers are reduced to what the wire carries that both must agree on.
import { Process } from '../../src/clock/process.js';
import { seconds } from '../../src/clock/time.js';
import { Cluster } from '../../src/cluster/cluster.js';
import type { KeyValue } from '../../src/cluster/mvcc/index.js';
import type { ClientRequest, ClientResponse, RpcError, WatchRequest } from '../../src/cluster/server/api.js';

export type WireStep = { readonly kv: ClientRequest } | { readonly watch: WatchRequest } | { readonly settle: true };

const put = (key: string, value: string, more: Partial<Extract<ClientRequest, { op: 'Put' }>> = {}): WireStep => ({
  kv: { op: 'Put', key, value, lease: 0n, ...more },
});
const range = (key: string, more: Partial<Extract<ClientRequest, { op: 'Range' }>> = {}): WireStep => ({
  kv: { op: 'Range', key, ...more },
});

export const WIRE_STEPS: readonly WireStep[] = [
  put('a', '1'),
  put('b', '2'),
  put('a', '3', { prevKv: true }),
  put('c', '4'),
  { kv: { op: 'DeleteRange', key: 'b', prevKv: true } },
  put('a', '', { ignoreValue: true, prevKv: true }),
  put('zz', '', { ignoreLease: true }),
  put('a', 'x', { ignoreValue: true }),
  put('d', 'a'),
  range('a', { rangeEnd: 'z' }),
  range('a', { rangeEnd: 'z', limit: 2 }),
  range('a', { rangeEnd: '\0', sortOrder: 'DESCEND' }),
  range('a', { rangeEnd: 'z', sortTarget: 'VERSION', sortOrder: 'DESCEND', limit: 1 }),
  range('a', { rangeEnd: 'z', sortTarget: 'VALUE' }),
  range('a', { rangeEnd: 'z', sortTarget: 'CREATE' }),
  range('a', { rangeEnd: 'z', minModRevision: 5, limit: 1 }),
  range('a', { rangeEnd: 'z', maxCreateRevision: 4, keysOnly: true }),
  range('a', { rangeEnd: 'z', countOnly: true }),
  range('a', { rangeEnd: 'z', revision: 3 }),
  range('b', { revision: 4 }),
  range('a', { revision: 99 }),
  range(''),
  { watch: { op: 'WatchCreate', key: 'a', startRevision: 2, prevKv: true } },
  { watch: { op: 'WatchCreate', key: 'b', startRevision: 3 } },
  { kv: { op: 'Compaction', revision: 5 } },
  { kv: { op: 'Compaction', revision: 5 } },
  { kv: { op: 'Compaction', revision: 50 } },
  range('a', { revision: 4 }),
  range('a', { rangeEnd: 'z', revision: 5 }),
  { watch: { op: 'WatchCreate', key: 'a', startRevision: 3 } },
  { watch: { op: 'WatchCreate', key: 'a', rangeEnd: 'z', startRevision: 5, prevKv: true } },
  { watch: { op: 'WatchCreate', key: 'c', filters: ['NOPUT'], watchId: 7 } },
  { watch: { op: 'WatchCreate', key: 'c', watchId: 7 } },
  { watch: { op: 'WatchCreate', key: 'b', rangeEnd: 'a' } },
  { watch: { op: 'WatchCreate', key: '', rangeEnd: '\0', filters: ['NODELETE'] } },
  { settle: true },
  { watch: { op: 'WatchProgress' } },
  { settle: true },
  put('c', '5'),
  { kv: { op: 'DeleteRange', key: 'c', prevKv: true } },
  {
    kv: {
      op: 'Txn',
      compare: [{ key: 'c', target: 'VERSION', result: 'EQUAL', version: 0 }],
      success: [
        { op: 'Put', key: 'e', value: '1', lease: 0n },
        { op: 'Put', key: 'f', value: '2', lease: 0n },
      ],
      failure: [],
    },
  },
  { kv: { op: 'DeleteRange', key: 'a', rangeEnd: 'f', prevKv: true } },
  { settle: true },
  { watch: { op: 'WatchCancel', watchId: 7 } },
  { watch: { op: 'WatchCancel', watchId: 99 } },
  { settle: true },
];

/** A key-value as both sides report it. */
export const wireKv = (kv: KeyValue) => ({
  key: kv.key,
  value: kv.value,
  create: kv.createRevision,
  mod: kv.modRevision,
  version: kv.version,
  lease: kv.lease.toString(),
});

export type WireAnswer = Record<string, unknown>;
export interface WireRun {
  readonly kv: WireAnswer[];
  readonly watch: WireAnswer[];
}

const GRPC_CODE: Partial<Record<RpcError['code'], string>> = {
  OutOfRange: 'OUT_OF_RANGE',
  InvalidArgument: 'INVALID_ARGUMENT',
};

function modelAnswer(r: ClientResponse | RpcError): WireAnswer {
  if ('code' in r) return { error: `${GRPC_CODE[r.code] ?? r.code}: ${r.message}` };
  const a: WireAnswer = { rev: r.header.revision };
  if (r.op === 'Range') Object.assign(a, { kvs: r.kvs.map(wireKv), more: r.more, count: r.count });
  if (r.op === 'Put' && r.prevKv !== undefined) a.prevKv = wireKv(r.prevKv);
  if (r.op === 'DeleteRange') {
    a.deleted = r.deleted;
    if (r.prevKvs !== undefined && r.prevKvs.length > 0) a.prevKvs = r.prevKvs.map(wireKv);
  }
  if (r.op === 'Txn') a.succeeded = r.succeeded;
  return a;
}

/** The steps on a one-member simulated cluster, settling for the same real time the etcd run waits. */
export function runModel(steps: readonly WireStep[], waitUs: { watch: number; settle: number }): WireRun {
  const c = new Cluster({ members: 1 });
  const t = c.connect('c1', new Process('c1', c.sched));
  c.runUntil(seconds(1));
  const kv: WireAnswer[] = [];
  const watch: WireAnswer[] = [];
  const w = t.openWatch('n1', {
    onResponse: (r) =>
      watch.push({
        id: r.watchId,
        created: r.created,
        canceled: r.canceled,
        compact: r.compactRevision,
        reason: r.cancelReason,
        rev: r.header.revision,
        events: r.events.map((e) => ({
          type: e.type,
          ...wireKv(e.kv),
          ...(e.prevKv !== undefined ? { prev: e.prevKv.value } : {}),
        })),
      }),
    onError: (e) => watch.push({ error: e.message }),
  });
  for (const s of steps) {
    if ('kv' in s) {
      let got: ClientResponse | RpcError | undefined;
      t.unary('n1', s.kv, (r) => (got = r));
      while (got === undefined) c.runUntil(c.now() + 1000);
      kv.push(modelAnswer(got));
    } else if ('watch' in s) {
      w.send(s.watch);
      c.runUntil(c.now() + waitUs.watch);
    } else c.runUntil(c.now() + waitUs.settle);
  }
  return { kv, watch };
}

/** Watch responses grouped by watch ID, in arrival order within each (the order across IDs may vary). */
export function byWatchId(rs: readonly WireAnswer[]): Record<string, WireAnswer[]> {
  const out: Record<string, WireAnswer[]> = {};
  for (const r of rs) (out[String(r.id)] ??= []).push(r);
  return out;
}
