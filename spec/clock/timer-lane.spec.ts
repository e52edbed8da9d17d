// Delay lanes against a model: timers set with `after` (a lane per delay) and `at` (the heap) run in one
// order, time then the order they were set, and cancelled ones never run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler, type Timer } from '../../src/clock/scheduler.js';
import { fcParams } from '../support/fc.js';

type Op =
  | { op: 'at'; delay: number }
  | { op: 'after'; lane: number }
  | { op: 'cancel'; pick: number }
  | { op: 'step' }
  | { op: 'nested'; lane: number };

// Few delays, colliding with the absolute times, so ties between lanes and the heap are common.
const LANE_DELAYS = [0, 3, 5];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('at' as const), delay: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('after' as const), lane: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('step' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('nested' as const), lane: fc.integer({ min: 1, max: 2 }) }) },
);

interface Live {
  readonly name: number;
  readonly at: number;
  readonly timer: Timer;
}

describe('Scheduler lanes', () => {
  it('runs lane timers in the order after() would, cancelled ones never, and counts them as pending', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const sched = new Scheduler();
        const ran: number[] = [];
        const live: Live[] = [];
        let names = 0;
        const set = (kind: 'at' | 'after', delay: number): void => {
          const name = names++;
          const fire = (): void => void ran.push(name);
          const timer = kind === 'at' ? sched.at(sched.now() + delay, fire) : sched.after(delay, fire);
          live.push({ name, at: sched.now() + delay, timer });
        };
        for (const o of ops) {
          if (o.op === 'at') set('at', o.delay);
          else if (o.op === 'after') set('after', LANE_DELAYS[o.lane]!);
          else if (o.op === 'nested') {
            // A lane timer that sets another timer on its own lane when it fires.
            const name = names++;
            const delay = LANE_DELAYS[o.lane]!;
            const timer = sched.after(delay, () => {
              ran.push(name);
              set('after', delay);
            });
            live.push({ name, at: sched.now() + delay, timer });
          } else if (o.op === 'cancel' && live.length > 0) {
            const [gone] = live.splice(o.pick % live.length, 1);
            gone!.timer.cancel();
            expect(gone!.timer.cancelled).toBe(true);
          } else if (o.op === 'step') {
            const next = live.reduce<Live | undefined>(
              (m, e) => (m === undefined || e.at < m.at || (e.at === m.at && e.name < m.name) ? e : m),
              undefined,
            );
            expect(sched.peekTime()).toBe(next?.at);
            const before = ran.length;
            if (next !== undefined) live.splice(live.indexOf(next), 1);
            expect(sched.step()).toBe(next !== undefined);
            if (next !== undefined) {
              expect(ran[before]).toBe(next.name);
              expect(sched.now()).toBe(next.at);
              next.timer.cancel(); // cancelling a timer that already ran changes nothing
            }
          }
          expect(sched.pending).toBe(live.length);
        }
        // Draining runs every live timer, in the model's order.
        const order = [...live].sort((a, b) => a.at - b.at || a.name - b.name).map((e) => e.name);
        const from = ran.length;
        sched.runUntilIdle();
        expect(ran.slice(from).filter((n) => order.includes(n))).toEqual(order);
      }),
      fcParams(300),
    );
  });

  it('drops a lane from the heap once every timer on it is cancelled', () => {
    const sched = new Scheduler();
    const timers = Array.from({ length: 5 }, () => sched.after(7, () => expect.unreachable()));
    for (const t of timers) t.cancel();
    expect(sched.pending).toBe(0);
    expect(sched.peekTime()).toBeUndefined();
    expect(sched.runUntilIdle(100)).toBe(true);
    expect(sched.eventsExecuted).toBe(0);
  });

  it('refuses a negative or fractional delay, also once lanes of other delays exist', () => {
    const sched = new Scheduler();
    sched.after(0, () => {});
    sched.after(3, () => {});
    expect(() => sched.after(-1, () => {})).toThrow(/negative delay/);
    expect(() => sched.after(0.5, () => {})).toThrow(/integer/);
    expect(sched.pending).toBe(2);
  });
});
