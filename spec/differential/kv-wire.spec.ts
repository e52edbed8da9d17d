// The KV and Watch APIs against a real one-member etcd 3.4.23: the same requests (kv-wire-steps.ts) on
// both, every unary answer and every watch's responses compared whole. Skipped where /usr/bin/etcd is
// missing. About 6 s of real time.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawTxn } from '../../src/real-etcd/etcd-rpc-txn.js';
import { freePorts } from '../../src/real-etcd/ports.js';
import type { ClientRequest, WatchRequest } from '../../src/cluster/server/api.js';
import { byWatchId, runModel, WIRE_STEPS, type WireAnswer, type WireRun, type WireStep } from './kv-wire-steps.js';

const ETCD = '/usr/bin/etcd';
const noEtcd = !existsSync(ETCD);
const WAIT_MS = { watch: 150, settle: 400 };

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');
const end = (e: string | undefined): object => (e === undefined ? {} : { range_end: bytes(e) });

function rawKv(r: ClientRequest): [string, object] {
  switch (r.op) {
    case 'Range':
      return [
        'Range',
        {
          key: bytes(r.key),
          ...end(r.rangeEnd),
          limit: r.limit ?? 0,
          revision: r.revision ?? 0,
          sort_order: r.sortOrder ?? 'NONE',
          sort_target: r.sortTarget ?? 'KEY',
          keys_only: r.keysOnly === true,
          count_only: r.countOnly === true,
          min_mod_revision: r.minModRevision ?? 0,
          max_mod_revision: r.maxModRevision ?? 0,
          min_create_revision: r.minCreateRevision ?? 0,
          max_create_revision: r.maxCreateRevision ?? 0,
        },
      ];
    case 'Put':
      return [
        'Put',
        {
          key: bytes(r.key),
          value: bytes(r.value),
          lease: r.lease.toString(),
          prev_kv: r.prevKv === true,
          ignore_value: r.ignoreValue === true,
          ignore_lease: r.ignoreLease === true,
        },
      ];
    case 'DeleteRange':
      return ['DeleteRange', { key: bytes(r.key), ...end(r.rangeEnd), prev_kv: r.prevKv === true }];
    case 'Compaction':
      return ['Compact', { revision: r.revision }];
    case 'Txn':
      return ['Txn', rawTxn(r)];
    default:
      throw new Error(`kv-wire: no ${r.op} in the steps`);
  }
}

function rawWatch(w: WatchRequest): object {
  if (w.op === 'WatchCancel') return { cancel_request: { watch_id: w.watchId } };
  if (w.op === 'WatchProgress') return { progress_request: {} };
  return {
    create_request: {
      key: bytes(w.key),
      ...end(w.rangeEnd),
      start_revision: w.startRevision ?? 0,
      prev_kv: w.prevKv === true,
      filters: w.filters ?? [],
      watch_id: w.watchId ?? 0,
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: raw proto-loader messages
type Raw = any;
const kvOf = (kv: Raw) => ({
  key: kv.key.toString('latin1'),
  value: kv.value.toString('latin1'),
  create: Number(kv.create_revision),
  mod: Number(kv.mod_revision),
  version: Number(kv.version),
  lease: String(kv.lease),
});

function realAnswer(method: string, r: Raw): WireAnswer {
  const a: WireAnswer = { rev: Number(r.header.revision) };
  if (method === 'Range') Object.assign(a, { kvs: r.kvs.map(kvOf), more: r.more, count: Number(r.count) });
  if (method === 'Put' && r.prev_kv !== null) a.prevKv = kvOf(r.prev_kv);
  if (method === 'DeleteRange') {
    a.deleted = Number(r.deleted);
    if (r.prev_kvs.length > 0) a.prevKvs = r.prev_kvs.map(kvOf);
  }
  if (method === 'Txn') a.succeeded = r.succeeded;
  return a;
}

const realWatch = (r: Raw): WireAnswer => ({
  id: Number(r.watch_id),
  created: r.created,
  canceled: r.canceled,
  compact: Number(r.compact_revision),
  reason: r.cancel_reason,
  rev: Number(r.header.revision),
  events: r.events.map((e: Raw) => ({
    type: e.type,
    ...kvOf(e.kv),
    ...(e.prev_kv !== null ? { prev: e.prev_kv.value.toString('latin1') } : {}),
  })),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runReal(steps: readonly WireStep[]): Promise<WireRun> {
  const [client, peer] = await freePorts(2);
  const dir = mkdtempSync(join(tmpdir(), 'kv-wire-'));
  const url = (p: number | undefined) => `http://127.0.0.1:${p}`;
  const etcd = spawn(
    ETCD,
    [
      '--name=m1',
      `--data-dir=${dir}`,
      `--listen-client-urls=${url(client)}`,
      `--advertise-client-urls=${url(client)}`,
      `--listen-peer-urls=${url(peer)}`,
      `--initial-advertise-peer-urls=${url(peer)}`,
      `--initial-cluster=m1=${url(peer)}`,
    ],
    { stdio: 'ignore' },
  );
  try {
    const def = protoLoader.loadSync('rpc.proto', {
      includeDirs: [join(__dirname, '../../src/serve')],
      keepCase: true,
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    });
    const pkg = grpc.loadPackageDefinition(def).etcdserverpb as Raw;
    const creds = grpc.credentials.createInsecure();
    const kvc = new pkg.KV(`127.0.0.1:${client}`, creds);
    const call = (method: string, req: object): Promise<WireAnswer> =>
      new Promise((resolve) =>
        kvc[method](req, { deadline: Date.now() + 5000 }, (e: grpc.ServiceError | null, r: Raw) =>
          resolve(e !== null ? { error: `${grpc.status[e.code]}: ${e.details}` } : realAnswer(method, r)),
        ),
      );
    for (let i = 0; i < 50 && 'error' in (await call('Range', { key: bytes('x') })); i++) await sleep(200);
    const kv: WireAnswer[] = [];
    const watch: WireAnswer[] = [];
    const stream = new pkg.Watch(`127.0.0.1:${client}`, creds).Watch();
    stream.on('data', (r: Raw) => watch.push(realWatch(r)));
    stream.on('error', () => {});
    for (const s of steps) {
      if ('kv' in s) {
        const [method, req] = rawKv(s.kv);
        kv.push(await call(method, req));
      } else if ('watch' in s) {
        stream.write(rawWatch(s.watch));
        await sleep(WAIT_MS.watch);
      } else await sleep(WAIT_MS.settle);
    }
    stream.end();
    return { kv, watch };
  } finally {
    etcd.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

describe(`KV and Watch answers against etcd 3.4.23${noEtcd ? ' (skipped: /usr/bin/etcd is missing)' : ''}`, () => {
  it.skipIf(noEtcd)(
    'gives every Range, Put, DeleteRange, Txn and Compact answer and every watch response etcd gives',
    async () => {
      const real = await runReal(WIRE_STEPS);
      const model = runModel(WIRE_STEPS, { watch: WAIT_MS.watch * 1000, settle: WAIT_MS.settle * 1000 });
      // Sanity: etcd answered the whole run (a dead etcd would make every answer an error).
      expect(real.kv.filter((a) => 'rev' in a).length).toBeGreaterThan(20);
      expect(model.kv).toHaveLength(real.kv.length);
      for (let i = 0; i < real.kv.length; i++) expect(model.kv[i], `kv answer #${i}`).toEqual(real.kv[i]);
      expect(byWatchId(model.watch)).toEqual(byWatchId(real.watch));
    },
    60_000,
  );
});
