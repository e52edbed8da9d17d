// A program's writes and beliefs judged by the holder monitors, with the truth read from key deletions.
import { describe, expect, it } from 'vitest';
import { judgeApps, revocationsFromDeletions } from '../../src/apps/judge.js';
import type { TraceEvent } from '../../src/trace/trace.js';
import { ev } from '../properties/synthetic.js';

const acquired = (t: number, who: string, lease: bigint, token: number, key = '/locks/x'): TraceEvent =>
  ev(t, who, 'holder-acquired', lease, { key, token });
const write = (t: number, who: string, token: number, accepted: boolean): TraceEvent =>
  ev(t, who, 'client-fenced-write', undefined, { resource: 'r', token, accepted });
const stop = (t: number, who: string, lease: bigint, lateS = 0): TraceEvent =>
  ev(t, who, 'holder-stop', lease, { reason: 'x', ...(lateS > 0 ? { lateUs: lateS * 1e6 } : {}) });

function judged(events: TraceEvent[], deletions: { key: string; t: number }[], end = 30) {
  const truth = revocationsFromDeletions(
    events,
    deletions.map((d) => ({ key: d.key, tUs: d.t * 1e6 })),
  );
  return judgeApps([...events, ...truth], end * 1e6).map((j) => ({
    key: j.key,
    violated: j.violations.map((v) => v.property).sort(),
  }));
}

describe('judgeApps', () => {
  it('a holder that stops when it wakes, after the revoke, with its stale write fenced off by the rival', () => {
    const events = [
      acquired(1, 'a', 1n, 5),
      write(2, 'a', 5, true),
      acquired(12, 'rival', 2n, 9),
      write(12, 'rival', 9, true),
      write(17, 'a', 5, false),
      stop(17.1, 'a', 1n),
    ];
    expect(judged(events, [{ key: '/locks/x', t: 11.5 }])).toEqual([
      { key: '/locks/x', violated: ['holder-stops-before-revoke', 'no-overlap'] },
    ]);
  });

  it('the same stale write accepted when no newer token came first', () => {
    const events = [acquired(1, 'a', 1n, 5), write(13, 'a', 5, true), stop(14, 'a', 1n)];
    expect(judged(events, [{ key: '/locks/x', t: 11.5 }])[0]!.violated).toEqual([
      'holder-stops-before-revoke',
      'no-stale-write-accepted',
    ]);
  });

  it('a holder that says late that it stopped at its deadline, before the revoke, is not blamed', () => {
    const events = [
      acquired(1, 'a', 1n, 5),
      ev(3, 'a', 'holder-deadline', 1n, { untilUs: 11e6 }),
      acquired(12, 'rival', 2n, 9),
      stop(17, 'a', 1n, 6),
    ];
    expect(judged(events, [{ key: '/locks/x', t: 11.5 }])).toEqual([{ key: '/locks/x', violated: [] }]);
  });

  it('judges each lock key on its own: holders of different keys never overlap', () => {
    const events = [acquired(1, 'a', 1n, 5, '/locks/a'), acquired(1, 'b', 2n, 6, '/locks/b')];
    expect(judged(events, [])).toEqual([
      { key: '/locks/a', violated: [] },
      { key: '/locks/b', violated: [] },
    ]);
  });

  it("a deletion revokes the latest holder of that key at the time, once, and ignores other keys' holders", () => {
    const events = [acquired(1, 'a', 1n, 5), acquired(12, 'rival', 2n, 9), acquired(1, 'b', 3n, 6, '/locks/b')];
    const truth = revocationsFromDeletions(events, [
      { key: '/locks/x', tUs: 11e6 },
      { key: '/locks/x', tUs: 11.5e6 },
      { key: '/locks/x', tUs: 20e6 },
    ]);
    expect(truth.map((e) => [e.t, e.member, e.lease])).toEqual([
      [11e6, 'a', 1n],
      [20e6, 'rival', 2n],
    ]);
  });
});
