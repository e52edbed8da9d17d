import { describe, expect, it } from 'vitest';
import { Process } from '../../src/clock/process.js';
import { Scheduler } from '../../src/clock/scheduler.js';

describe('Process', () => {
  it('holds timers while paused and fires them late, in due order, on resume', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    const fired: Array<[string, number]> = [];
    p.after(10, () => fired.push(['a', s.now()]));
    p.after(20, () => fired.push(['b', s.now()]));
    p.pause();
    s.advance(100);
    expect(fired).toEqual([]);
    p.resume();
    expect(fired).toEqual([
      ['a', 100],
      ['b', 100],
    ]);
  });

  it('drops timers of a killed incarnation, even when a held callback restarts the process', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    const fired: string[] = [];
    p.after(10, () => {
      fired.push('first');
      p.kill();
      p.restart();
    });
    p.after(20, () => fired.push('second'));
    p.pause();
    s.advance(100);
    p.resume();
    expect(fired).toEqual(['first']);
    s.advance(100);
    expect(fired).toEqual(['first']);
  });

  it('keeps the wall clock apart from the monotonic clock', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    p.jumpWall(-30);
    s.advance(5);
    expect(p.now()).toBe(5);
    expect(p.wallNow()).toBe(-25);
  });
});
