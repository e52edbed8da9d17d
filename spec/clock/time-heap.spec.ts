// The indexed heap against a model that keeps its items in a plain array and takes the minimum by a scan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/clock/scheduler.js';
import { TimeHeap, type HeapItem } from '../../src/clock/time-heap.js';
import { fcParams } from '../support/fc.js';

interface Item extends HeapItem {
  readonly name: number;
}

type Op =
  | { op: 'push'; time: number }
  | { op: 'pop' }
  | { op: 'fix'; pick: number; time: number }
  | { op: 'remove'; pick: number }
  | { op: 'retime-all-then-init'; times: number[] };

// Few distinct times, so ties (and therefore the insertion-sequence tie-break) are common.
const time = fc.integer({ min: 0, max: 6 });
const pick = fc.nat();
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('push' as const), time }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('pop' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('fix' as const), pick, time }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('retime-all-then-init' as const), times: fc.array(time) }) },
);

/** The model's minimum: earliest time, then the earliest push. */
const earliest = (held: readonly Item[]): Item | undefined =>
  held.reduce<Item | undefined>(
    (m, e) => (m === undefined || e.time < m.time || (e.time === m.time && e.seq < m.seq) ? e : m),
    undefined,
  );

function expectWellFormed(heap: TimeHeap<Item>, held: readonly Item[]): void {
  expect(heap.length).toBe(held.length);
  expect(new Set(heap.items)).toEqual(new Set(held));
  heap.items.forEach((e, i) => {
    expect(e.index).toBe(i);
    if (i > 0) {
      const p = heap.items[(i - 1) >> 1]!;
      expect(p.time < e.time || (p.time === e.time && p.seq < e.seq)).toBe(true);
    }
  });
  expect(heap.peek()).toBe(earliest(held));
}

describe('TimeHeap', () => {
  it('pops, fixes and removes exactly as a scan over a plain array would', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const heap = new TimeHeap<Item>();
        const held: Item[] = [];
        let names = 0;
        for (const o of ops) {
          switch (o.op) {
            case 'push': {
              const e: Item = { name: names++, time: o.time, seq: -1, index: -1 };
              heap.push(e);
              held.push(e);
              break;
            }
            case 'pop': {
              const want = earliest(held);
              const got = heap.pop();
              expect(got).toBe(want);
              if (got !== undefined) {
                expect(got.index).toBe(-1);
                held.splice(held.indexOf(got), 1);
              }
              break;
            }
            case 'fix': {
              if (held.length === 0) break;
              const e = held[o.pick % held.length]!;
              e.time = o.time;
              heap.fix(e);
              break;
            }
            case 'remove': {
              if (held.length === 0) break;
              const e = held.splice(o.pick % held.length, 1)[0]!;
              heap.remove(e);
              expect(e.index).toBe(-1);
              heap.remove(e); // a second removal is a no-op
              break;
            }
            case 'retime-all-then-init': {
              held.forEach((e, i) => {
                e.time = o.times[i] ?? e.time;
              });
              heap.init();
              break;
            }
          }
          expectWellFormed(heap, held);
        }
        // Draining yields the model's order.
        const drained: number[] = [];
        for (let e = heap.pop(); e !== undefined; e = heap.pop()) drained.push(e.name);
        const sorted = [...held].sort((a, b) => a.time - b.time || a.seq - b.seq).map((e) => e.name);
        expect(drained).toEqual(sorted);
      }),
      fcParams(300),
    );
  });
});

describe('Scheduler with eager cancellation', () => {
  type SOp = { op: 'at'; delay: number } | { op: 'cancel'; pick: number } | { op: 'step' };
  const sopArb: fc.Arbitrary<SOp> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('at' as const), delay: fc.integer({ min: 0, max: 5 }) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('step' as const) }) },
  );

  it('runs the live events in (time, scheduling order) and counts only live ones as pending', () => {
    fc.assert(
      fc.property(fc.array(sopArb, { maxLength: 60 }), (ops) => {
        const sched = new Scheduler();
        const ran: number[] = [];
        const live: { name: number; at: number; timer: ReturnType<Scheduler['at']> }[] = [];
        let names = 0;
        for (const o of ops) {
          if (o.op === 'at') {
            const name = names++;
            const at = sched.now() + o.delay;
            const timer = sched.at(at, () => ran.push(name));
            live.push({ name, at, timer });
          } else if (o.op === 'cancel' && live.length > 0) {
            const [gone] = live.splice(o.pick % live.length, 1);
            gone!.timer.cancel();
            expect(gone!.timer.cancelled).toBe(true);
          } else if (o.op === 'step') {
            // The model's next event: earliest time, then the one scheduled first (names grow in that order).
            const next = live.reduce<(typeof live)[number] | undefined>(
              (m, e) => (m === undefined || e.at < m.at || (e.at === m.at && e.name < m.name) ? e : m),
              undefined,
            );
            expect(sched.peekTime()).toBe(next?.at);
            expect(sched.step()).toBe(next !== undefined);
            if (next !== undefined) {
              expect(ran.at(-1)).toBe(next.name);
              expect(sched.now()).toBe(next.at);
              live.splice(live.indexOf(next), 1);
              next.timer.cancel(); // cancelling an event that already ran changes nothing
            }
          }
          expect(sched.pending).toBe(live.length);
        }
      }),
      fcParams(300),
    );
  });
});
