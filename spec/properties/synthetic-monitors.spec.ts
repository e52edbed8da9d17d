// Monitors whose violations no bug switch of the model produces, on hand-written traces.
import { describe, expect, it } from 'vitest';
import { MONITORS } from '../../src/properties/index.js';
import { FOREVER } from '../../src/lessor/lease.js';
import { ev, syntheticView } from './synthetic.js';

const L1 = 7n;
const grantStep = ['{ at: 0s, grant: { lease: L1, ttl: 5 } }'];
const granted = [
  ev(0.003, 'n1', 'lease-grant', L1, { ttl: 5, expiry: 5_003_000 }),
  ev(0.004, 'n2', 'lease-grant', L1, { ttl: 5, expiry: FOREVER }),
  ev(0.004, 'ctl-n1', 'ctl-granted', L1, { label: 'L1', ttl: 5 }),
];

describe('monitors on hand-written traces', () => {
  it('no-early-expiry counts a renewal only once a client received a positive TTL for it', () => {
    const renewed = [
      ...granted,
      ev(4, 'n1', 'lease-renew', L1, { ttl: 5, expiry: 9_000_000 }),
      // The lessor expires it on the grant's deadline, as if the renewal had never reached it.
      ev(5.5, 'n1', 'lease-expired', L1, { expiry: 5_003_000 }),
      ev(5.502, 'n1', 'lease-revoke', L1, { keys: [] }),
    ];
    expect(MONITORS['no-early-expiry'].check(syntheticView(grantStep, renewed, [['L1', L1]]))).toBeUndefined();
    const acked = [
      ...renewed.slice(0, 4),
      ev(4.001, 'c1', 'client-keepalive-recv', L1, { ttl: 5 }),
      ...renewed.slice(4),
    ];
    const v = MONITORS['no-early-expiry'].check(syntheticView(grantStep, acked, [['L1', L1]]));
    expect(v?.event.kind).toBe('lease-revoke');
    expect(v?.traceLine).toBe(7);
  });

  it('key-lease-atomicity: a revoke must delete the keys it lists, at one revision', () => {
    const base = [
      ...granted,
      ev(1, 'n1', 'kv-put', undefined, { key: '/a', rev: 2, lease: 7n }),
      ev(1, 'n1', 'lease-attach', L1, { keys: ['/a', '/b'] }),
    ];
    const good = [
      ...base,
      ev(6, 'n1', 'kv-delete', undefined, { key: '/a', rev: 3 }),
      ev(6, 'n1', 'kv-delete', undefined, { key: '/b', rev: 3 }),
      ev(6, 'n1', 'lease-revoke', L1, { keys: ['/a', '/b'] }),
    ];
    expect(MONITORS['key-lease-atomicity'].check(syntheticView(grantStep, good, [['L1', L1]]))).toBeUndefined();
    const split = [
      ...base,
      ev(6, 'n1', 'kv-delete', undefined, { key: '/a', rev: 3 }),
      ev(6, 'n1', 'kv-delete', undefined, { key: '/b', rev: 4 }),
      ev(6, 'n1', 'lease-revoke', L1, { keys: ['/a', '/b'] }),
    ];
    expect(MONITORS['key-lease-atomicity'].check(syntheticView(grantStep, split, [['L1', L1]]))?.message).toMatch(
      /2 revisions/,
    );
    const missing = [
      ...base,
      ev(6, 'n1', 'kv-delete', undefined, { key: '/a', rev: 3 }),
      ev(6, 'n1', 'lease-revoke', L1, { keys: ['/a', '/b'] }),
    ];
    expect(MONITORS['key-lease-atomicity'].check(syntheticView(grantStep, missing, [['L1', L1]]))?.message).toMatch(
      /without deleting \/b/,
    );
  });

  it('no-resurrection: a member that applied a revoke never holds the lease again', () => {
    const revoked = [...granted, ev(6, 'n2', 'lease-revoke', L1, { keys: [] })];
    expect(MONITORS['no-resurrection'].check(syntheticView(grantStep, revoked, [['L1', L1]]))).toBeUndefined();
    const back = [
      ...revoked,
      ev(7, 'n2', 'member-restart'),
      ev(7.1, 'n2', 'lease-grant', L1, { ttl: 5, expiry: FOREVER }),
    ];
    const v = MONITORS['no-resurrection'].check(syntheticView(grantStep, back, [['L1', L1]]));
    expect([v?.event.member, v?.event.kind, v?.atUs]).toEqual(['n2', 'lease-grant', 7_100_000]);
  });

  it(
    'grant-bounds: the granted TTL is the request ' +
      'raised to the minimum, ' +
      'and a TTL above MaxLeaseTTL is refused',
    () => {
      // Default election timeout 1 s: the minimum TTL is ceil(1.5 s) = 2 s.
      const steps = ['{ at: 0s, grant: { lease: L1, ttl: 1 } }'];
      const clamp = (ttl: number) =>
        syntheticView(steps, [ev(0.004, 'ctl-n1', 'ctl-granted', L1, { label: 'L1', ttl })], [['L1', L1]]);
      expect(MONITORS['grant-bounds'].check(clamp(2))).toBeUndefined();
      expect(MONITORS['grant-bounds'].check(clamp(1))?.message).toMatch(/expected 2 s/);
      const huge = syntheticView(
        ['{ at: 0s, grant: { lease: L1, ttl: 9000000001 } }'],
        [ev(0.004, 'ctl-n1', 'ctl-granted', L1, { label: 'L1', ttl: 9000000001 })],
        [['L1', L1]],
      );
      expect(MONITORS['grant-bounds'].check(huge)?.message).toMatch(/above MaxLeaseTTL/);
    },
  );

  it(
    'renewing-client-keeps-lease: a kept-alive lease revoked with ' +
      'no fault around is a violation, one after a fault is not',
    () => {
      const steps = ['{ at: 0s, grant: { lease: L1, ttl: 5 } }', '{ at: 0s, keepalive: { lease: L1, client: c1 } }'];
      const events = [
        ...granted,
        ev(25, 'n1', 'lease-expired', L1, { expiry: 24_900_000 }),
        ev(25.002, 'n1', 'lease-revoke', L1, { keys: [] }),
      ];
      expect(
        MONITORS['renewing-client-keeps-lease'].check(syntheticView(steps, events, [['L1', L1]]))?.event.kind,
      ).toBe('lease-revoke');
      const faulted = syntheticView([...steps, '{ at: 20s, crash: { member: n3 } }'], events, [['L1', L1]]);
      expect(MONITORS['renewing-client-keeps-lease'].check(faulted)).toBeUndefined();
    },
  );
});
