import { describe, expect, it } from 'vitest';
import { Process } from '../../../src/clock/process.js';
import { Prng } from '../../../src/clock/prng.js';
import { Scheduler } from '../../../src/clock/scheduler.js';
import { ms, type Micros } from '../../../src/clock/time.js';
import { Trace } from '../../../src/trace/trace.js';
import { closure, Network, type NetworkConfig } from '../../../src/cluster/network/index.js';

function setup(config: Partial<NetworkConfig> = {}, seed = 1) {
  const sched = new Scheduler();
  const trace = new Trace();
  const net = new Network(sched, new Prng(seed), config, trace);
  const procs = new Map<string, Process>();
  for (const name of ['n1', 'n2', 'n3', 'c1']) {
    const p = new Process(name, sched);
    procs.set(name, p);
    net.attach(name, p);
  }
  /** Arrival times by message label. */
  const got: [string, Micros][] = [];
  const send = (from: string, to: string, label: string, kind: 'peer' | 'client' = 'peer') =>
    net.send(
      from,
      to,
      kind,
      closure(() => got.push([label, sched.now()])),
    );
  return { sched, trace, net, procs, got, send, proc: (n: string) => procs.get(n)! };
}

describe('Network', () => {
  it('delivers after the one-way latency; a link override applies to both directions only', () => {
    const { sched, net, got, send } = setup({ latencyUs: ms(1) });
    net.setLinkLatency('n1', 'n3', ms(40));
    send('n1', 'n2', 'a');
    send('n1', 'n3', 'b');
    send('n3', 'n1', 'c');
    send('n2', 'n3', 'd');
    sched.runUntilIdle();
    expect(got).toEqual([
      ['a', ms(1)],
      ['d', ms(1)],
      ['b', ms(40)],
      ['c', ms(40)],
    ]);
  });

  it('gives messages sent after setLinkLatency the new latency, in both directions of a change', () => {
    const { sched, net, got, send } = setup({ latencyUs: ms(1) });
    send('n1', 'n2', 'a');
    net.setLinkLatency('n1', 'n2', ms(5));
    send('n1', 'n2', 'b');
    sched.runUntil(ms(10));
    net.setLinkLatency('n1', 'n2', ms(1));
    send('n1', 'n2', 'c');
    sched.runUntilIdle();
    expect(got).toEqual([
      ['a', ms(1)],
      ['b', ms(5)],
      ['c', ms(11)],
    ]);
  });

  it(
    'keeps each link FIFO under jitter, with every delay within ' +
      '[latency, latency + jitter] unless held back by FIFO',
    () => {
      const { sched, got, send } = setup({ latencyUs: ms(1), jitterUs: ms(5) });
      const sentAt: Micros[] = [];
      for (let i = 0; i < 500; i++) {
        sched.at(i * 100, () => {
          sentAt.push(sched.now());
          send('n1', 'n2', String(i));
        });
      }
      sched.runUntilIdle();
      expect(got.map(([l]) => Number(l))).toEqual(Array.from({ length: 500 }, (_, i) => i));
      let prev = 0;
      let overtakingPrevented = 0;
      const delays = new Set<number>();
      got.forEach(([, at], i) => {
        const d = at - sentAt[i]!;
        expect(d).toBeGreaterThanOrEqual(ms(1));
        if (at === prev && d > ms(1)) overtakingPrevented++;
        else expect(d).toBeLessThanOrEqual(ms(6));
        delays.add(d);
        prev = at;
      });
      // Jitter really varies, and FIFO really had to hold messages back.
      expect(delays.size).toBeGreaterThan(100);
      expect(overtakingPrevented).toBeGreaterThan(0);
    },
  );

  it('drops about the configured share of peer messages and never a client message', () => {
    const { sched, got, send } = setup({ lossProbability: 0.3 });
    for (let i = 0; i < 2000; i++) send('n1', 'n2', 'p');
    for (let i = 0; i < 2000; i++) send('c1', 'n2', 'c', 'client');
    sched.runUntilIdle();
    const peers = got.filter(([l]) => l === 'p').length;
    expect(peers).toBeGreaterThan(1300);
    expect(peers).toBeLessThan(1500);
    expect(got.filter(([l]) => l === 'c').length).toBe(2000);
  });

  it('a partition cuts peer traffic between groups, including messages in flight; clients reach everyone', () => {
    const { sched, net, got, send, trace } = setup({ latencyUs: ms(10) });
    send('n1', 'n2', 'in-flight');
    sched.runUntil(ms(5));
    net.partition([['n1'], ['n2', 'n3']]);
    send('n1', 'n2', 'cut');
    send('n2', 'n3', 'same-group');
    send('c1', 'n1', 'client', 'client');
    send('n1', 'c1', 'reply', 'client');
    expect(net.connected('n1', 'n2')).toBe(false);
    expect(net.connected('n1', 'n2', 'client')).toBe(true);
    sched.runUntil(ms(20));
    net.heal();
    send('n1', 'n2', 'healed');
    sched.runUntilIdle();
    expect(got.map(([l]) => l)).toEqual(['same-group', 'client', 'reply', 'healed']);
    expect(trace.lines()).toEqual(['0.005000 sim net-partition - groups=n1|n2,n3', '0.020000 sim net-heal -']);
  });

  it('an endpoint left out of every group is isolated; names are checked', () => {
    const { sched, net, got, send } = setup();
    net.partition([['n1', 'n2']]);
    send('n1', 'n2', 'ok');
    send('n1', 'n3', 'lost');
    send('n3', 'n2', 'lost');
    sched.runUntilIdle();
    expect(got.map(([l]) => l)).toEqual(['ok']);
    expect(() => net.partition([['n1'], ['n1', 'n2']])).toThrow(/two partition groups/);
    expect(() => net.partition([['n9']])).toThrow(/unknown endpoint n9/);
    expect(() => send('n1', 'n9', 'x')).toThrow(/unknown endpoint n9/);
  });

  it('follows the receiver process: held while paused, lost while dead, handed to the next incarnation', () => {
    const { sched, got, send, proc } = setup();
    proc('n2').pause();
    send('n1', 'n2', 'held');
    sched.runUntil(ms(50));
    expect(got).toEqual([]);
    proc('n2').resume();
    // Taken up at the resume instant, behind the process's own held timers.
    expect(got).toEqual([]);
    sched.runUntil(ms(50));
    expect(got).toEqual([['held', ms(50)]]);

    proc('n3').kill();
    send('n1', 'n3', 'dead');
    sched.runUntil(ms(60));
    send('n1', 'n3', 'restarted');
    proc('n3').restart();
    sched.runUntilIdle();
    expect(got.map(([l]) => l)).toEqual(['held', 'restarted']);
  });

  it('is deterministic for a seed and draws jitter from its own fork of the stream', () => {
    const arrivals = (seed: number) => {
      const { sched, got, send } = setup({ jitterUs: ms(3), lossProbability: 0.1 }, seed);
      for (let i = 0; i < 100; i++) send(`n${(i % 3) + 1}`, `n${((i + 1) % 3) + 1}`, String(i));
      sched.runUntilIdle();
      return got;
    };
    expect(arrivals(7)).toEqual(arrivals(7));
    expect(arrivals(7)).not.toEqual(arrivals(8));
  });

  it('rejects bad configuration and double attachment', () => {
    const sched = new Scheduler();
    expect(() => new Network(sched, new Prng(1), { lossProbability: 1.5 })).toThrow(RangeError);
    expect(() => new Network(sched, new Prng(1), { latencyUs: 0.5 })).toThrow(RangeError);
    const net = new Network(sched, new Prng(1));
    net.attach('n1', new Process('n1', sched));
    expect(() => net.attach('n1', new Process('n1', sched))).toThrow(/already attached/);
    expect(() => net.setLinkLatency('n1', 'n1', -1)).toThrow(RangeError);
  });
});
