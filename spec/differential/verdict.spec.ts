// diff's verdict: a difference in event times alone, on a host the driver measured busy, is its own
// verdict (exit 5), never agreement; a difference in values, an event on one side only or an assertion
// is a disagreement whatever the load.
import { describe, expect, it } from 'vitest';
import type { EventPair } from '../../src/real-etcd/compare.js';
import { verdictOf } from '../../src/real-etcd/diff-file.js';
import { LoadProbe } from '../../src/real-etcd/load-probe.js';
import { EXPIRY } from '../../src/real-etcd/tolerances.js';

const obs = (tUs: number) => ({ kind: 'delete' as const, subject: '/k', tUs, value: 3 });
const late: EventPair = {
  kind: 'delete',
  subject: '/k',
  nth: 1,
  sim: obs(10_000_000),
  real: obs(11_000_000),
  deltaUs: 1_000_000,
  tolerance: EXPIRY,
  valuesAgree: true,
  within: false,
};
const onlyOnEtcd: EventPair = { ...late, sim: undefined, deltaUs: undefined };

describe('diff verdict', () => {
  const busy = { busy: true };
  const quiet = { busy: false };
  it('agrees whatever the load when everything agrees', () => {
    expect(verdictOf({ agree: true, assertionsAgree: true, unexpected: [] }, busy)).toBe('agree');
  });
  it('calls a late event on a busy host timing-under-load, on a quiet one a disagreement', () => {
    const c = { agree: false, assertionsAgree: true, unexpected: [late] };
    expect(verdictOf(c, busy)).toBe('timing-under-load');
    expect(verdictOf(c, quiet)).toBe('disagree');
  });
  it('never excuses an event seen on one side only, or an assertion, by load', () => {
    expect(verdictOf({ agree: false, assertionsAgree: true, unexpected: [late, onlyOnEtcd] }, busy)).toBe('disagree');
    expect(verdictOf({ agree: false, assertionsAgree: false, unexpected: [] }, busy)).toBe('disagree');
  });
  it('the probe measures its timer lag', async () => {
    const p = new LoadProbe();
    p.start();
    // Hold the event loop for 300 ms: the next timer fires at least that late.
    await new Promise((r) => setTimeout(r, 60));
    const end = Date.now() + 300;
    while (Date.now() < end);
    await new Promise((r) => setTimeout(r, 120));
    const reading = p.stop();
    expect(reading.samples).toBeGreaterThan(0);
    expect(reading.maxLagUs).toBeGreaterThan(200_000);
    expect(reading.busy).toBe(true);
  });
});
