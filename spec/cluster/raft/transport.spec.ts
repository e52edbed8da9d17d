import { describe, expect, it } from 'vitest';
import { Process } from '../../../src/clock/process.js';
import { Prng } from '../../../src/clock/prng.js';
import { Scheduler } from '../../../src/clock/scheduler.js';
import { ms, type Micros } from '../../../src/clock/time.js';
import { Network } from '../../../src/cluster/network/index.js';
import { Message } from '../../../src/cluster/raft/messages.js';
import { RaftTransport } from '../../../src/cluster/raft/transport.js';

/** n1 sends one heartbeat object to n2 every 100 ms for a second; returns when n2 handles each. */
function heartbeats(latencyUs: Micros, pauseN2?: readonly [Micros, Micros]): Micros[] {
  const sched = new Scheduler();
  const net = new Network(sched, new Prng(1), { latencyUs });
  const n2 = new Process('n2', sched);
  net.attach('n1', new Process('n1', sched));
  net.attach('n2', n2);
  const transport = new RaftTransport(net);
  const got: Micros[] = [];
  const out = transport.register({ id: 'n1', step: () => {} });
  transport.register({ id: 'n2', step: () => got.push(sched.now()) });
  const hb = Message.of({ type: 'MsgHeartbeat', from: 'n1', to: 'n2', term: 1 });
  for (let t = 0; t < ms(1000); t += ms(100)) sched.at(t, () => out.send(hb));
  if (pauseN2 !== undefined) {
    sched.at(pauseN2[0], () => n2.pause());
    sched.at(pauseN2[1], () => n2.resume());
  }
  sched.runUntilIdle();
  return got;
}

describe('RaftTransport', () => {
  it('delivers a message sent again each time, though the last copy is still on the wire', () => {
    // 250 ms of latency: each heartbeat is sent twice more before the first arrives.
    expect(heartbeats(ms(250))).toEqual([250, 350, 450, 550, 650, 750, 850, 950, 1050, 1150].map(ms));
  });

  it('delivers a message sent again each time, though the last copy waits for a stopped receiver', () => {
    // Arrivals at 301..701 ms wait for n2's resume at 750 ms, then go in order.
    const at = [1, 101, 201, 750, 750, 750, 750, 750, 801, 901].map(ms);
    expect(heartbeats(ms(1), [ms(250), ms(750)])).toEqual(at);
  });
});
