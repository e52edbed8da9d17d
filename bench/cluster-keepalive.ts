// Benchmark: 3 members, 10,000 leases (TTL 10 s) kept alive by clients at TTL/3 for one virtual hour.
import { Process } from '../src/clock/process.js';
import { MICROS_PER_SECOND, seconds } from '../src/clock/time.js';
import { EtcdClient } from '../src/client/index.js';
import { Cluster } from '../src/cluster/cluster.js';
import { Trace } from '../src/trace/trace.js';
import { report, type BenchResult } from './report.js';

const LEASES = Number(process.env.KA_LEASES ?? 10_000);
const CLIENTS = 100;
const HOUR = seconds(Number(process.env.KA_SECONDS ?? 3600));
// KA_SPREAD=0 pins every client to the leader (no forwarding); by default clients spread over members.
const SPREAD = process.env.KA_SPREAD !== '0';

export function clusterKeepAlive(): BenchResult[] {
  const cluster = new Cluster({ members: 3 }, { trace: new Trace(false) });
  cluster.runUntil(seconds(1));
  const leader = cluster.leader()!;
  const ids: bigint[] = [];
  for (let i = 1; i <= LEASES; i++) {
    const id = BigInt(i);
    ids.push(id);
    leader.raftRequest({ type: 'LeaseGrant', id, ttl: 10 }, () => {});
  }
  cluster.runUntil(seconds(2));
  const clients: EtcdClient[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const name = `c${c + 1}`;
    const proc = new Process(name, cluster.sched);
    const transport = cluster.connect(name, proc);
    // Spread the clients over the members, as a load balancer would.
    const start = SPREAD ? c % 3 : 0;
    const endpoints = [...cluster.names.slice(start), ...cluster.names.slice(0, start)];
    clients.push(new EtcdClient({ name, process: proc, transport, prng: cluster.prng.fork(name), endpoints }));
  }
  ids.forEach((id, i) => {
    clients[i % CLIENTS]!.keepAlive(id);
  });

  const e0 = cluster.sched.eventsExecuted;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  cluster.runUntil(seconds(2) + HOUR);
  const wall = (performance.now() - t0) / 1000;
  const c1 = process.cpuUsage(c0);
  // CPU time as well as wall time: on a shared machine the wall clock also counts other processes.
  const cpu = (c1.user + c1.system) / 1e6;
  const events = cluster.sched.eventsExecuted - e0;
  const alive = ids.filter((id) => leader.lessor.lookup(id) !== undefined).length;
  const renewed = leader.lessor.metrics.renewedTotal;
  return [
    report('cluster-keepalive', {
      leases: LEASES,
      'alive at end': alive,
      renewals: renewed,
      'wall s': wall.toFixed(2),
      events,
      'events/s': Math.round(events / wall),
      'cpu s': cpu.toFixed(2),
      'events/cpu s': Math.round(events / cpu),
      'virtual s per wall s': Math.round(HOUR / MICROS_PER_SECOND / wall),
    }),
  ];
}
