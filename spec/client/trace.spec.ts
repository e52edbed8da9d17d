// The client's trace lines, and that a disabled trace costs nothing observable.
import { describe, expect, it } from 'vitest';
import { EtcdClient, Mutex, Session, pauseClientFor } from '../../src/client/index.js';
import { Process } from '../../src/clock/process.js';
import { Prng } from '../../src/clock/prng.js';
import { Scheduler } from '../../src/clock/scheduler.js';
import { Trace, formatLeaseId } from '../../src/trace/trace.js';
import { FakeCluster } from './fake-cluster.js';
import { S, ok, world } from './harness.js';

describe('client trace', () => {
  it('speaks the trace grammar: member = client, lease in hex', () => {
    const w = world({ members: ['n1'] });
    const c1 = w.client('c1', { dialKeepAliveTimeUs: 0 });
    const id = w.cluster.grantNow(9);
    c1.keepAlive(id);
    w.at(1 * S, () => w.cluster.setReachable('n1', false));
    w.run(11 * S);
    const L = formatLeaseId(id);
    const lines = w.trace.lines();
    expect(lines.slice(0, 4)).toEqual([
      `0.000000 c1 client-keepalive-start ${L} requireLeader=false`,
      '0.000000 c1 client-keepalive-stream-open - endpoint=n1',
      `0.000000 c1 client-keepalive-send ${L} endpoint=n1`,
      `0.002000 c1 client-keepalive-recv ${L} ttl=9`,
    ]);
    expect(lines.at(-1)).toBe(`10.000000 c1 client-keepalive-closed ${L} reason=deadline`);
  });

  it('lock events carry the lock name and the fencing revision', () => {
    const w = world();
    const c1 = w.client('c1');
    Session.create(c1, {}, (s) => new Mutex(ok(s), '/locks/x').lock(() => {}));
    w.run(1 * S);
    expect(w.trace.lines().filter((l) => l.includes('client-lock'))).toEqual([
      '0.004000 c1 client-lock-acquired - name=/locks/x rev=2',
    ]);
  });

  it('pause and resume are traced on the client', () => {
    const w = world();
    const c1 = w.client('c1');
    pauseClientFor(w.sched, c1.process, 2 * S, w.trace);
    w.run(3 * S);
    expect(w.trace.lines()).toEqual(['0.000000 c1 client-pause -', '2.000000 c1 client-resume -']);
    expect(c1.process.paused).toBe(false);
  });

  it('a disabled trace records nothing and the client behaves the same', () => {
    const sched = new Scheduler();
    const cluster = new FakeCluster(sched);
    const trace = new Trace(false, false);
    const p = new Process('c1', sched);
    const c1 = new EtcdClient({ name: 'c1', process: p, transport: cluster.transportFor(p), prng: new Prng(1), trace });
    const id = cluster.grantNow(9);
    const ch = c1.keepAlive(id);
    sched.runUntil(15 * S);
    expect(trace.length).toBe(0);
    expect(ch.responses).toBe(5);
    // The default send loop drifts 0.7 ms a pass: each renewal goes out on the 6th pass, 3.0042 s later.
    expect(cluster.keepAliveArrivals(id).map((r) => r.t)).toEqual([1000, 3_005_200, 6_009_400, 9_013_600, 12_017_800]);
  });
});
