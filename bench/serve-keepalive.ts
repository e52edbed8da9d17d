// Benchmark: `serve` under 1,000 leases kept alive by gRPC clients on the wire (10 keep-alive streams of
// 100 leases, one renewal per lease every TTL/3 = 3 s, as clientv3 paces them) for SERVE_BENCH_SECONDS (60 by
// default), then the same load on a real 3-member etcd 3.4.23 cluster (the differential driver's launcher,
// etcd's default heartbeat and election timeout, n1 leading), when /usr/bin/etcd is there. Figures: the
// pacing lag serve reports (how late due events ran behind the wall clock), the keep-alive round trip the
// clients measured on each, and the latency serve adds (its round trip minus etcd's), against issue 22's
// targets: p99 lag ≤ 5 ms, added latency ≤ real etcd's own round trip. Runs only when named:
// BENCH=serve-keepalive.
import * as grpc from '@grpc/grpc-js';
import { existsSync } from 'node:fs';
import { findEtcd } from '../src/real-etcd/binaries.js';
import { ChildRegistry } from '../src/real-etcd/children.js';
import { EtcdCluster } from '../src/real-etcd/etcd-cluster.js';
import type { CliIO } from '../src/cli/io.js';
import { defaultCluster } from '../src/serve/default-cluster.js';
import { etcdPackage } from '../src/serve/grpc-server.js';
import { serve } from '../src/serve/serve.js';
import { report } from './report.js';

const LEASES = 1000;
const STREAMS = 10;
const TTL = 9;

type Json = Record<string, unknown>;
type Ctor = new (address: string, creds: grpc.ChannelCredentials) => grpc.Client;

const pct = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

interface Load {
  /** Keep-alive round trips, ms. */
  readonly rtts: readonly number[];
  /** Answers with TTL 0: leases lost under the load. */
  readonly lost: number;
}

function leaseService(): Ctor {
  return (etcdPackage() as unknown as Record<string, Ctor>).Lease!;
}

/**
 * Grants LEASES leases through the first endpoint, then keeps them alive on STREAMS streams spread over the
 * endpoints (host:port) for `seconds`, every lease renewed every TTL/3.
 */
async function keepAliveLoad(endpoints: readonly string[], seconds: number): Promise<Load> {
  const Lease = leaseService();
  const leaseClients = endpoints.map((e) => new Lease(e, grpc.credentials.createInsecure()));

  type Grant = (r: Json, cb: (e: grpc.ServiceError | null, r: Json) => void) => void;
  const ids: string[] = [];
  for (let i = 0; i < LEASES; i += 50) {
    const batch = await Promise.all(
      Array.from(
        { length: 50 },
        () =>
          new Promise<string>((ok, fail) =>
            ((leaseClients[0] as unknown as { LeaseGrant: Grant }).LeaseGrant as Grant).call(
              leaseClients[0],
              { TTL: String(TTL), ID: '0' },
              (e, r) => (e ? fail(e) : ok(String(r.ID))),
            ),
          ),
      ),
    );
    ids.push(...batch);
  }
  const rtts: number[] = [];
  let lost = 0;
  const streams = Array.from({ length: STREAMS }, (_, s) => {
    const c = leaseClients[s % leaseClients.length] as unknown as {
      LeaseKeepAlive(): grpc.ClientDuplexStream<Json, Json>;
    };
    const call = c.LeaseKeepAlive.call(leaseClients[s % leaseClients.length]);
    const sent: number[] = [];
    call.on('data', (r: Json) => {
      const t = sent.shift();
      if (t !== undefined) rtts.push(performance.now() - t);
      if (r.TTL === '0') lost++;
    });
    call.on('error', () => undefined);
    const mine = ids.slice(s * (LEASES / STREAMS), (s + 1) * (LEASES / STREAMS));
    const renew = (): void => {
      for (const id of mine) {
        sent.push(performance.now());
        call.write({ ID: id });
      }
    };
    return { call, renew };
  });
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    for (const s of streams) s.renew();
    await new Promise((r) => setTimeout(r, (TTL / 3) * 1000));
  }
  for (const s of streams) s.call.cancel();
  for (const c of leaseClients) c.close();
  return { rtts, lost };
}

const fixed = (v: number): string => v.toFixed(2);

/** etcd's own defaults, as the client conformance suite starts it. */
const ETCD_FLAGS = {
  heartbeatMs: 100,
  electionMs: 1000,
  leaseCheckpoint: false,
  leaseCheckpointPersist: false,
  preVote: false,
};

async function onRealEtcd(seconds: number): Promise<Load | string> {
  if (!existsSync('/usr/bin/etcd')) return '/usr/bin/etcd is missing (apt-get install etcd-server)';
  const registry = new ChildRegistry();
  try {
    const cluster = await EtcdCluster.start({ members: 3, flags: ETCD_FLAGS, binaries: findEtcd(), registry });
    try {
      return await keepAliveLoad(
        cluster.members.map((m) => m.clientUrl.replace(/^http:\/\//, '')),
        seconds,
      );
    } finally {
      await cluster.stop();
    }
  } finally {
    await registry.close();
  }
}

export async function serveKeepAliveBench(): Promise<void> {
  const seconds = Number(process.env.SERVE_BENCH_SECONDS ?? 60);
  const out: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => out.push(l), errIsTTY: false };
  const stop = new AbortController();
  const done = serve(
    defaultCluster(),
    { host: '127.0.0.1', basePort: undefined, record: undefined, fromFile: false, run: {}, stop: stop.signal },
    io,
  );
  while (!out.some((l) => l.startsWith('# ready'))) await new Promise((r) => setTimeout(r, 20));
  const endpoints = out.flatMap((l) => /^# n\d http:\/\/(\S+) /.exec(l)?.[1] ?? []);
  const served = await keepAliveLoad(endpoints, seconds);
  stop.abort();
  await done;
  const lag = out.find((l) => l.includes('pacing lag'))?.replace(/^lessor-sim serve: pacing lag /, '') ?? 'none';
  const lagP99 = Number(/p99 ([\d.]+) ms/.exec(lag)?.[1] ?? Number.NaN);
  report('serve keep-alive', {
    leases: LEASES,
    seconds,
    'renewals answered': served.rtts.length,
    'TTL 0 answers': served.lost,
    'round trip p50 ms': fixed(pct(served.rtts, 0.5)),
    'p99 ms': fixed(pct(served.rtts, 0.99)),
    'simulated floor ms': '2.00',
    'pacing lag': lag,
  });
  const etcd = await onRealEtcd(seconds);
  if (typeof etcd === 'string') {
    report('etcd 3.4.23 keep-alive', { skipped: etcd });
    return;
  }
  const added = (q: number): number => pct(served.rtts, q) - pct(etcd.rtts, q);
  report('etcd 3.4.23 keep-alive', {
    leases: LEASES,
    seconds,
    'renewals answered': etcd.rtts.length,
    'TTL 0 answers': etcd.lost,
    'round trip p50 ms': fixed(pct(etcd.rtts, 0.5)),
    'p99 ms': fixed(pct(etcd.rtts, 0.99)),
  });
  const lagMet = lagP99 <= 5;
  const addedMet = added(0.99) <= pct(etcd.rtts, 0.99);
  report('serve vs etcd', {
    'added latency p50 ms': fixed(added(0.5)),
    'p99 ms': fixed(added(0.99)),
    'target p99 lag ≤ 5 ms': lagMet ? 'met' : 'missed',
    "target added p99 ≤ etcd's p99": addedMet ? 'met' : 'missed',
  });
}
