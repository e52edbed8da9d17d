import { describe, expect, it } from 'vitest';
import { RunStopped } from '../../src/clock/run-guard.js';
import { Scheduler } from '../../src/clock/scheduler.js';

/** A timer that reschedules itself every `period` µs, counting how often it ran. */
function ticker(s: Scheduler, period: number): { runs: number } {
  const c = { runs: 0 };
  const tick = (): void => {
    c.runs++;
    s.after(period, tick);
  };
  s.after(period, tick);
  return c;
}

function stopOf(f: () => void): RunStopped {
  try {
    f();
  } catch (e) {
    if (e instanceof RunStopped) return e;
    throw e;
  }
  throw new Error('the run was not stopped');
}

describe('the scheduler run loop guard', () => {
  it('runs exactly maxEvents events, then stops before the next one with the time reached', () => {
    const s = new Scheduler();
    const c = ticker(s, 10);
    s.setGuard({ maxEvents: 25 });
    const stop = stopOf(() => s.runUntil(1_000_000));
    expect(stop.reason).toBe('max-events');
    expect(c.runs).toBe(25);
    expect(stop.events).toBe(25);
    expect(stop.atUs).toBe(250);
    expect(stop.message).toContain('25 events');
  });

  it('does not stop a run that needs exactly its budget', () => {
    const s = new Scheduler();
    let ran = 0;
    for (let i = 1; i <= 5; i++) s.at(i, () => ran++);
    s.setGuard({ maxEvents: 5 });
    expect(s.runUntilIdle()).toBe(true);
    expect(ran).toBe(5);
  });

  it('calls the poll hook every pollEvery events and stops with the reason it returns', () => {
    const s = new Scheduler();
    ticker(s, 1);
    const seen: Array<[number, number]> = [];
    s.setGuard({
      pollEvery: 100,
      poll: (now, events) => {
        seen.push([now, events]);
        return events >= 300 ? 'wall-clock timeout' : undefined;
      },
    });
    const stop = stopOf(() => s.runUntil(1_000_000));
    expect(seen).toEqual([
      [100, 100],
      [200, 200],
      [300, 300],
    ]);
    expect(stop.reason).toBe('poll');
    expect(stop.message).toBe('wall-clock timeout');
    expect(stop.events).toBe(300);
  });

  it('ends a run whose events keep rescheduling at one instant (a livelock), naming the instant', () => {
    const s = new Scheduler();
    ticker(s, 1000); // ordinary time-advancing work before the livelock
    s.at(5000, function spin() {
      s.after(0, spin);
    });
    s.setGuard({ maxEventsAtOneInstant: 50 });
    const stop = stopOf(() => s.runUntil(1_000_000));
    expect(stop.reason).toBe('livelock');
    expect(stop.atUs).toBe(5000);
    expect(stop.message).toContain('more than 50 events at one virtual instant');
  });

  it('lets a burst of exactly the threshold through at one instant, and counts each instant afresh', () => {
    const s = new Scheduler();
    let ran = 0;
    for (const t of [10, 20]) for (let i = 0; i < 50; i++) s.at(t, () => ran++);
    s.setGuard({ maxEventsAtOneInstant: 50 });
    s.runUntilIdle();
    expect(ran).toBe(100);
  });

  it('has no livelock guard unless one is set (a storm may run millions of events at one instant)', () => {
    const s = new Scheduler();
    let ran = 0;
    for (let i = 0; i < 100_000; i++) s.at(7, () => ran++);
    s.setGuard({ maxEvents: 1_000_000 });
    s.runUntilIdle();
    expect(ran).toBe(100_000);
  });
});
