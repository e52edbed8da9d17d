// The expiry notifier's 4-ary typed-array SlotHeap against the simulator's binary TimeHeap: the same
// pushes, fixes and re-inits give the same sequence of pops, so the trick changes no trace.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TimeHeap, type HeapItem } from '../../src/clock/time-heap.js';
import { leaseKey } from '../../src/lessor/lease-id.js';
import { LeaseSlot } from '../../src/lessor/lease-table.js';
import { SlotHeap } from '../../src/lessor/slot-heap.js';
import { fcParams } from '../support/fc.js';

type Op =
  | { op: 'push'; time: number }
  | { op: 'pop' }
  | { op: 'fix'; pick: number; time: number }
  | { op: 'retime-all-then-init'; times: number[] };

// Mostly few distinct times, so ties (settled by insertion sequence) are common; sometimes far-apart ones.
const time = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 6 }) }, fc.integer({ min: 0, max: 2 ** 45 }));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('push' as const), time }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('pop' as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('fix' as const), pick: fc.nat(), time }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('retime-all-then-init' as const), times: fc.array(time) }) },
);

/** One entry as each heap holds it: each heap writes its own index and sequence into its own item. */
interface Twin {
  readonly name: number;
  readonly item: HeapItem & { name: number };
  readonly slot: LeaseSlot;
}

const params = fcParams<[Op[]]>(300);

describe('SlotHeap', () => {
  it(`pops in TimeHeap's order through pushes, fixes and re-inits (fast-check seed ${params.seed})`, () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        const timeHeap = new TimeHeap<HeapItem & { name: number }>();
        const slotHeap = new SlotHeap();
        const names = new Map<LeaseSlot, number>();
        const held: Twin[] = [];
        let next = 0;
        const setTime = (t: Twin, time: number): void => {
          t.item.time = time;
          t.slot.time = time;
        };
        for (const o of ops) {
          switch (o.op) {
            case 'push': {
              const name = next++;
              const t: Twin = {
                name,
                item: { name, time: 0, seq: -1, index: -1 },
                slot: new LeaseSlot(BigInt(name), leaseKey(BigInt(name))),
              };
              setTime(t, o.time);
              names.set(t.slot, name);
              timeHeap.push(t.item);
              slotHeap.push(t.slot);
              held.push(t);
              break;
            }
            case 'pop': {
              const a = timeHeap.pop();
              const b = slotHeap.pop();
              expect(b === undefined ? undefined : names.get(b)).toBe(a?.name);
              if (a !== undefined)
                held.splice(
                  held.findIndex((t) => t.name === a.name),
                  1,
                );
              break;
            }
            case 'fix': {
              if (held.length === 0) break;
              const t = held[o.pick % held.length]!;
              setTime(t, o.time);
              timeHeap.fix(t.item);
              slotHeap.fix(t.slot);
              break;
            }
            case 'retime-all-then-init': {
              held.forEach((t, i) => {
                setTime(t, o.times[i] ?? t.item.time);
              });
              timeHeap.init();
              slotHeap.init();
              break;
            }
          }
          expect(slotHeap.length).toBe(timeHeap.length);
          const top = slotHeap.peek();
          expect(top === undefined ? undefined : names.get(top)).toBe(timeHeap.peek()?.name);
        }
        const drained: [number | undefined, number | undefined][] = [];
        for (let a = timeHeap.pop(), b = slotHeap.pop(); a !== undefined || b !== undefined; ) {
          drained.push([a?.name, b === undefined ? undefined : names.get(b)]);
          a = timeHeap.pop();
          b = slotHeap.pop();
        }
        expect(drained.filter(([a, b]) => a !== b)).toEqual([]);
      }),
      params,
    );
  });
});
