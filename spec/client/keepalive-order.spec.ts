// The loops' order copies each state's times beside it: the copies must equal the fields they stand for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeepAliveOrder, type OrderedKeepAlive } from '../../src/client/keepalive-order.js';
import { fcParams } from '../support/fc.js';

interface State extends OrderedKeepAlive {
  nextKeepAlive: number;
  deadline: number;
}

describe('KeepAliveOrder', () => {
  it('holds every state at its position, with its times copied, after any sequence of updates', () => {
    const time = fc.integer({ min: -1, max: 2 ** 40 });
    const updates = fc.array(fc.tuple(fc.nat(), time, time), { maxLength: 50 });
    fc.assert(
      fc.property(fc.array(fc.tuple(time, time), { maxLength: 40 }), updates, (initial, ups) => {
        const states: State[] = initial.map(([n, d]) => ({ nextKeepAlive: n, deadline: d, pos: -1 }));
        const order = new KeepAliveOrder(states);
        for (const [i, n, d] of ups) {
          if (states.length === 0) break;
          const s = states[i % states.length]!;
          s.nextKeepAlive = n;
          s.deadline = d;
          order.update(s);
        }
        expect(order.list).toEqual(states);
        states.forEach((s, i) => {
          expect(s.pos).toBe(i);
          expect(order.next[i]).toBe(s.nextKeepAlive);
          expect(order.deadline[i]).toBe(s.deadline);
        });
      }),
      fcParams(200),
    );
  });

  it('a state in a newer order moves to its new position; the older order keeps its snapshot', () => {
    const a: State = { nextKeepAlive: 5, deadline: 50, pos: -1 };
    const b: State = { nextKeepAlive: 7, deadline: 70, pos: -1 };
    const old = new KeepAliveOrder([a, b]);
    const now = new KeepAliveOrder([b]);
    expect(b.pos).toBe(0);
    b.nextKeepAlive = 9;
    now.update(b);
    expect(Array.from(now.next)).toEqual([9]);
    expect(Array.from(old.next)).toEqual([5, 7]);
  });
});
