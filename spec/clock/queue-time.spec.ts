// The scheduler counts time from -2^31 µs inside (queue-time.ts); everything it hands out must be plain
// virtual time, on both sides of 2^31 µs (2,147 s) and of 2^32 µs (where the inside count passes 2^31).
import { describe, expect, it } from 'vitest';
import { Process } from '../../src/clock/process.js';
import { fromQueueTime, toQueueTime } from '../../src/clock/queue-time.js';
import { RunStopped } from '../../src/clock/run-guard.js';
import { Scheduler } from '../../src/clock/scheduler.js';

const SMALL_END = 2 ** 31;

describe('the scheduler past 2^31 µs', () => {
  it('converts exactly both ways, far beyond any clock this simulator runs', () => {
    for (const t of [-5e6, 0, SMALL_END - 1, SMALL_END, 2 ** 32 + 7, 2 ** 53 - 1, 9.2e15]) {
      expect(fromQueueTime(toQueueTime(t))).toBe(t);
    }
    expect(toQueueTime(0)).toBe(-SMALL_END);
    expect(toQueueTime(SMALL_END - 1)).toBe(-1);
  });

  it('fires timers set at and after plain instants in time order, and reports those instants', () => {
    const s = new Scheduler(SMALL_END - 3);
    const p = new Process('n1', s);
    const seen: Array<[string, number]> = [];
    const note = (name: string) => () => seen.push([name, s.now()]);
    const times = [2 ** 32 + 5, SMALL_END, SMALL_END - 1, 2 ** 32 - 1, 2 ** 32];
    const timers = times.map((t) => s.at(t, note(`at ${t}`)));
    const late = p.after(2 ** 32, note('process after 2^32'));
    const lane = s.after(4, note('after 4'));
    expect(timers.map((t) => t.at)).toEqual(times);
    expect(late.at).toBe(SMALL_END - 3 + 2 ** 32);
    expect(lane.at).toBe(SMALL_END + 1);
    expect(s.now()).toBe(SMALL_END - 3);
    expect(s.peekTime()).toBe(SMALL_END - 1);
    s.runUntil(2 ** 32);
    expect(s.now()).toBe(2 ** 32);
    expect(s.peekTime()).toBe(2 ** 32 + 5);
    expect(s.runUntilIdle()).toBe(true);
    expect(seen).toEqual([
      [`at ${SMALL_END - 1}`, SMALL_END - 1],
      [`at ${SMALL_END}`, SMALL_END],
      ['after 4', SMALL_END + 1],
      [`at ${2 ** 32 - 1}`, 2 ** 32 - 1],
      [`at ${2 ** 32}`, 2 ** 32],
      [`at ${2 ** 32 + 5}`, 2 ** 32 + 5],
      ['process after 2^32', SMALL_END - 3 + 2 ** 32],
    ]);
  });

  it('keeps plain time before its time 0, across advance and an idle limit', () => {
    const s = new Scheduler(-3_000_000);
    expect(s.now()).toBe(-3_000_000);
    s.advance(1_000_000);
    expect(s.now()).toBe(-2_000_000);
    s.at(SMALL_END + 10, () => {});
    expect(s.runUntilIdle(SMALL_END)).toBe(false);
    expect(s.now()).toBe(SMALL_END);
    expect(() => s.at(SMALL_END - 1, () => {})).toThrow(
      `cannot schedule in the past (${SMALL_END - 1} < ${SMALL_END})`,
    );
    expect(() => s.runUntil(5)).toThrow('runUntil(5) is in the past');
  });

  it('stops a run with the plain instant it reached', () => {
    const s = new Scheduler(SMALL_END + 100);
    s.setGuard({ maxEventsAtOneInstant: 3 });
    const again = (): void => void s.after(0, again);
    again();
    try {
      s.runUntilIdle();
      expect.unreachable('the livelock guard should stop the run');
    } catch (e) {
      expect(e).toBeInstanceOf(RunStopped);
      expect((e as RunStopped).atUs).toBe(SMALL_END + 100);
    }
    const polled: number[] = [];
    const t = new Scheduler(2 ** 32);
    t.setGuard({ pollEvery: 1, poll: (now) => void polled.push(now) });
    t.after(7, () => {});
    t.after(9, () => {});
    t.runUntilIdle();
    // The poll runs before the second event, at the time the first one left.
    expect(polled).toEqual([2 ** 32 + 7]);
  });
});
