import { describe, expect, it } from 'vitest';
import { FencedResource } from '../../src/client/index.js';
import { Scheduler } from '../../src/clock/scheduler.js';
import { Trace } from '../../src/trace/trace.js';

describe('FencedResource', () => {
  it('accepts tokens ≥ the highest seen, rejects older ones, and records who and when', () => {
    const sched = new Scheduler();
    const trace = new Trace();
    const r = new FencedResource('R', sched, { trace });
    expect(r.write('c1', 10)).toBe(true);
    sched.advance(1_000);
    expect(r.write('c1', 10)).toBe(true); // the holder writes again with its one token
    expect(r.write('c2', 12, 'x')).toBe(true);
    sched.advance(1_000);
    expect(r.write('c1', 10)).toBe(false);
    expect([r.accepted, r.rejected, r.highestToken]).toEqual([3, 1, 12]);
    expect(r.writes[3]).toEqual({ who: 'c1', at: 2_000, token: 10, accepted: false, highestBefore: 12 });
    expect(trace.lines()).toEqual([
      '0.000000 c1 client-fenced-write - resource=R token=10 accepted=true',
      '0.001000 c1 client-fenced-write - resource=R token=10 accepted=true',
      '0.001000 c2 client-fenced-write - resource=R token=12 accepted=true',
      '0.002000 c1 client-fenced-write - resource=R token=10 accepted=false',
    ]);
  });

  it('strict mode (the runbook’s `fencing_revision < $1`) also rejects an equal token', () => {
    const r = new FencedResource('R', new Scheduler(), { strict: true });
    expect([r.write('a', 5), r.write('a', 5), r.write('b', 6)]).toEqual([true, false, true]);
  });
});
