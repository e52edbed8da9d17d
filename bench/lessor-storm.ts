// Benchmark: 1,000,000 leases expire with no renewals and are revoked under the default revoke rate, set
// against its floor: the same entries pushed through heap-js and a Map, nothing else. Times are CPU
// seconds, so a loaded machine slows both sides alike.
import { Heap } from 'heap-js';
import { Prng } from '../src/clock/prng.js';
import { Process } from '../src/clock/process.js';
import { Scheduler } from '../src/clock/scheduler.js';
import { MICROS_PER_SECOND, formatSeconds } from '../src/clock/time.js';
import { createLessor } from '../src/lessor/index.js';
import { cpuSeconds, report, type BenchResult } from './report.js';

const N = Number(process.env.STORM_LEASES ?? 1_000_000);
const GIB = 2 ** 30;

/** The cost floor, in CPU s: the same entries through heap-js and a Map, nothing else. */
function heapFloor(ttls: readonly number[]): number {
  const f0 = process.cpuUsage();
  const heap = new Heap<{ time: number; id: bigint }>((a, b) => a.time - b.time);
  const map = new Map<bigint, number>();
  for (let i = 0; i < ttls.length; i++) {
    const id = BigInt(i + 1);
    heap.add({ time: ttls[i]!, id });
    map.set(id, i);
  }
  while (heap.length > 0) map.delete(heap.pop()!.id);
  return cpuSeconds(f0);
}

/**
 * What stands between the storm and the floor, in CPU s: heap-js and Maps doing the operations etcd's
 * algorithm needs per lease and no more. Push at grant; at expiry the root is re-armed a retry interval
 * later (sifted down) before its lease is revoked; the stale entry is popped when it reaches the root
 * (lazy deletion); the lease map's get and set at grant, get at revoke, delete at the stale pop; the
 * bucket's set and delete. Revokes run at 1000 per virtual second, as in the storm.
 */
function etcdShapedFloor(ttls: readonly number[]): number {
  const f0 = process.cpuUsage();
  const heap = new Heap<{ time: number; id: number; live: boolean }>((a, b) => a.time - b.time);
  const leases = new Map<number, { time: number; id: number; live: boolean }>();
  const bucket = new Map<number, number>();
  for (let i = 0; i < ttls.length; i++) {
    const id = i + 1;
    if (leases.get(id) !== undefined) continue;
    const e = { time: ttls[i]! * MICROS_PER_SECOND, id, live: true };
    leases.set(id, e);
    bucket.set(id, ttls[i]!);
    heap.add(e);
  }
  let revoked = 0;
  while (heap.length > 0) {
    const top = heap.peek()!;
    if (!top.live) {
      heap.pop();
      leases.delete(top.id);
      continue;
    }
    top.time = Math.max(top.time, revoked * 1000) + 3 * MICROS_PER_SECOND;
    heap.replace(top);
    leases.get(top.id)!.live = false;
    bucket.delete(top.id);
    revoked++;
  }
  return cpuSeconds(f0);
}

export function lessorStorm(): BenchResult[] {
  const sched = new Scheduler();
  const proc = new Process('n1', sched);
  const lessor = createLessor(proc, { minLeaseTTLSeconds: 2 });
  // An instant-commit server: every offered batch is revoked as soon as it is received (its keyless
  // deletes share one transaction object, so the figure is the lessor's work).
  const txn = { deleteRange: () => {}, end: () => {} };
  lessor.setRangeDeleter(() => txn);
  let revoked = 0;
  let offered = 0;
  lessor.expiredLeasesC.onReady = () => {
    const batch = lessor.expiredLeasesC.receive()!;
    offered += batch.length;
    for (const l of batch) {
      lessor.revoke(l.id);
      revoked++;
    }
  };
  const prng = new Prng(1);
  const ttls = Array.from({ length: N }, () => prng.int(5, 65));

  const c0 = process.cpuUsage();
  const t0 = performance.now();
  lessor.promote(0);
  for (let i = 0; i < N; i++) lessor.grant(BigInt(i + 1), ttls[i]!);
  // Every lease is live now: the storm's high-water mark (the process's maxRSS would include whatever
  // benchmark ran before this one).
  const grantedRss = process.memoryUsage().rss;
  while (revoked < N) sched.step();
  const cpu = cpuSeconds(c0);
  const wall = (performance.now() - t0) / 1000;
  const peakRss = Math.max(grantedRss, process.memoryUsage().rss);

  const floor = heapFloor(ttls);
  const shaped = etcdShapedFloor(ttls);

  return [
    report('lessor-storm', {
      figure: cpu,
      unit: 'CPU s',
      limit: floor,
      limitName: 'heap floor',
      target: { atMost: 1.6 },
      checks: [{ name: 'peak RSS GiB', value: peakRss / GIB, atMost: 1 }],
      details: {
        leases: N,
        'wall s': wall.toFixed(2),
        // Lease state changes (grant, expiry offered, revoke) plus run-loop ticks, per CPU second.
        'events/s': Math.round((N + offered + revoked + sched.eventsExecuted) / cpu),
        'virtual s': formatSeconds(sched.now()),
        'virtual s per CPU s': Math.round(sched.now() / MICROS_PER_SECOND / cpu),
        'peak RSS MiB': Math.round(peakRss / 2 ** 20),
        'etcd-shaped floor CPU s': shaped.toFixed(2),
        'storm/etcd-shaped': (cpu / shaped).toFixed(2),
      },
    }),
  ];
}
