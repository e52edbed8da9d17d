// Benchmark: 3 members, 10,000 leases (TTL 10 s) kept alive by clients at TTL/3 for one virtual hour.
// Targets: ≥ 2 M events/CPU s, and no slowdown once µs timestamps pass 2^31 (2,147 virtual seconds, where
// they stop being small integers): the events/CPU s after that point against before it.
import { Process } from '../src/clock/process.js';
import { MICROS_PER_SECOND, seconds } from '../src/clock/time.js';
import { EtcdClient } from '../src/client/index.js';
import { Cluster } from '../src/cluster/cluster.js';
import { Trace } from '../src/trace/trace.js';
import { KEEPALIVE_SHAPE, bareLoop } from './bare-loop.js';
import { cpuSeconds, report, type BenchResult } from './report.js';

const LEASES = Number(process.env.KA_LEASES ?? 10_000);
const CLIENTS = 100;
const HOUR = seconds(Number(process.env.KA_SECONDS ?? 3600));
// KA_SPREAD=0 pins every client to the leader (no forwarding); by default clients spread over members.
const SPREAD = process.env.KA_SPREAD !== '0';
/** Where µs timestamps leave the small-integer range. */
const SMALL_INT_END = 2 ** 31;

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
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const end = seconds(2) + HOUR;
  // The run in two legs, split where timestamps pass 2^31 µs (when the run gets that far).
  const split = Math.min(end, SMALL_INT_END);
  cluster.runUntil(split);
  const cpuSmall = cpuSeconds(c0);
  const eSmall = cluster.sched.eventsExecuted - e0;
  cluster.runUntil(end);
  const cpu = cpuSeconds(c0);
  const wall = (performance.now() - t0) / 1000;
  const events = cluster.sched.eventsExecuted - e0;
  const rateSmall = eSmall / cpuSmall;
  const rateLarge = split < end ? (events - eSmall) / (cpu - cpuSmall) : undefined;
  const large = rateLarge === undefined ? undefined : rateLarge / rateSmall;
  const alive = ids.filter((id) => leader.lessor.lookup(id) !== undefined).length;
  const renewed = leader.lessor.metrics.renewedTotal;
  // The limit: the bare loop doing as many events, in the same process.
  const loop = bareLoop({ ...KEEPALIVE_SHAPE, events });
  return [
    report('cluster-keepalive', {
      figure: events / cpu,
      unit: 'events/CPU s',
      limit: loop.eventsPerCpuS,
      limitName: 'bare event loop',
      target: { atLeast: 0.5 },
      checks: [
        { name: 'events/CPU s', value: events / cpu, atLeast: 2e6 },
        ...(large === undefined ? [] : [{ name: 'rate after/before 2,147 s', value: large, atLeast: 0.95 }]),
      ],
      details: {
        leases: LEASES,
        'alive at end': alive,
        renewals: renewed,
        'CPU s': cpu.toFixed(2),
        'wall s': wall.toFixed(2),
        events,
        'virtual s per CPU s': Math.round(HOUR / MICROS_PER_SECOND / cpu),
        // Each leg's own rate, so an A/B can compare the legs across builds, not only their ratio.
        ...(rateLarge === undefined
          ? {}
          : { 'M events/CPU s to 2,147 s': (rateSmall / 1e6).toFixed(3), after: (rateLarge / 1e6).toFixed(3) }),
      },
    }),
  ];
}
