// The monitors read trace fields typed: RunView.eventOf narrows an index to its kind, expiryOf reads a deadline.
// The @ts-expect-error lines are checked by `tsc --noEmit`: a misspelt kind or a field the kind lacks must not compile.
import { describe, expect, it } from 'vitest';
import { FOREVER } from '../../src/lessor/lease.js';
import { expiryOf } from '../../src/trace/trace.js';
import { ev, syntheticView } from './synthetic.js';

const L1 = 7n;
const events = [
  ev(0.003, 'n1', 'lease-grant', L1, { ttl: 5, expiry: 5_003_000 }),
  ev(0.004, 'n2', 'lease-grant', L1, { ttl: 5, expiry: FOREVER }),
  ev(1, 'n1', 'kv-put', undefined, { key: '/a', rev: 2, lease: L1 }),
];
const view = syntheticView(['{ at: 0s, grant: { lease: L1, ttl: 5 } }'], events, [['L1', L1]]);

describe('typed trace reads in the monitors', () => {
  it('eventOf returns the event an index of ofKind names, its fields typed', () => {
    const [put] = view.ofKind('kv-put');
    const e = view.eventOf(put!, 'kv-put');
    expect([e.fields.key, e.fields.rev, e.fields.lease]).toEqual(['/a', 2, L1]);
    // @ts-expect-error: kv-put has no ttl
    expect(e.fields.ttl).toBeUndefined();
    // @ts-expect-error: no such kind
    expect(view.ofKind('kv-putt')).toEqual([]);
  });

  it('eventOf refuses an index of another kind, naming its trace line', () => {
    expect(() => view.eventOf(2, 'lease-grant')).toThrow('trace line 3 is a kv-put event, not lease-grant');
  });

  it('expiryOf gives a finite deadline, and undefined for a lease no lessor will expire', () => {
    const [a, b] = view.ofKind('lease-grant').map((i) => view.eventOf(i, 'lease-grant'));
    expect([expiryOf(a!), expiryOf(b!)]).toEqual([5_003_000, undefined]);
  });

  it("hand-written events carry their kind's fields, as an emitter's must", () => {
    // @ts-expect-error: every lease-expired names its deadline (expiry)
    const bare = ev(5, 'n1', 'lease-expired', L1);
    // @ts-expect-error: a kv-put's lease is an ID (bigint), not a number
    ev(1, 'n1', 'kv-put', undefined, { key: '/a', rev: 2, lease: 7 });
    expect(ev(5, 'n1', 'lease-expired', L1, { expiry: 5_003_000 }).fields.expiry).toBe(5_003_000);
    expect(bare.kind).toBe('lease-expired');
  });
});
