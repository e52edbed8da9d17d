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

  it('on resume runs held timers and what they schedule at that instant before the input held while stopped', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    const order: string[] = [];
    const packet = (name: string) => ({ run: () => order.push(name) });
    p.after(10, () => {
      order.push('timer');
      p.after(0, () => order.push('handed on by the timer'));
    });
    p.pause();
    s.advance(5);
    p.receiveInput(p.generation, packet('input 1'));
    s.advance(95);
    p.receiveInput(p.generation, packet('input 2'));
    p.resume();
    // Input arriving before the held input is taken up queues behind it: each link stays FIFO.
    p.receiveInput(p.generation, packet('input 3'));
    expect(order).toEqual(['timer']);
    s.advance(0);
    expect(order).toEqual(['timer', 'handed on by the timer', 'input 1', 'input 2', 'input 3']);
    p.receiveInput(p.generation, packet('input 4'));
    expect(order.at(-1)).toBe('input 4');
  });

  it('drops held input when the process is killed, and keeps the rest of it when a packet stops it again', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    const order: string[] = [];
    p.pause();
    p.receiveInput(p.generation, {
      run: () => {
        order.push('a');
        p.pause();
      },
    });
    p.receiveInput(p.generation, { run: () => order.push('b') });
    p.resume();
    s.advance(0);
    expect(order).toEqual(['a']);
    p.resume();
    s.advance(0);
    expect(order).toEqual(['a', 'b']);
    p.pause();
    p.receiveInput(p.generation, { run: () => order.push('c') });
    p.kill();
    p.restart();
    s.advance(0);
    expect(order).toEqual(['a', 'b']);
  });

  it('holds handOff messages with the timers, in arrival order, and drops those of a dead incarnation', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    const order: string[] = [];
    const inbox = { receive: (m: string) => order.push(m) };
    p.handOff(p.generation, inbox, 'running');
    expect(order).toEqual(['running']);
    p.after(10, () => order.push('timer'));
    p.pause();
    p.handOff(p.generation, inbox, 'held 1');
    s.advance(20);
    p.handOff(p.generation, inbox, 'held 2');
    p.resume();
    expect(order).toEqual(['running', 'held 1', 'timer', 'held 2']);
    const old = p.generation;
    p.kill();
    p.restart();
    p.handOff(old, inbox, 'to the old incarnation');
    expect(order.at(-1)).toBe('held 2');
  });

  it('sets a timer again with arm once it has fired, in the order a new timer would run, and only then', () => {
    const s = new Scheduler();
    const p = new Process('n1', s);
    const order: string[] = [];
    const tick = p.timer(() => {
      order.push(`tick ${s.now()}`);
      if (s.now() < 30) tick.arm(10);
    });
    tick.arm(10);
    expect(() => tick.arm(10)).toThrow(/set or cancelled/);
    p.after(10, () => order.push(`after ${s.now()}`));
    p.pause();
    s.advance(15);
    p.resume();
    s.advance(100);
    // Held at 10 and run on resume at 15, the tick is next due at 25 and then 35, where it stops.
    expect(order).toEqual(['tick 15', 'after 15', 'tick 25', 'tick 35']);
    const dead = p.timer(() => order.push('cancelled'));
    dead.arm(5);
    dead.cancel();
    expect(() => dead.arm(5)).toThrow(/set or cancelled/);
    s.advance(10);
    expect(order.at(-1)).toBe('tick 35');
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
