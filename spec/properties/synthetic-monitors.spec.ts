// Monitors whose violations no bug switch of the model produces, on hand-written traces.
import { describe, expect, it } from 'vitest';
import { MONITORS } from '../../src/properties/index.js';
import { FOREVER } from '../../src/lessor/lease.js';
import type { TraceEvent } from '../../src/trace/trace.js';
import { ev, syntheticView } from './synthetic.js';

const L1 = 7n;
const grantStep = ['{ at: 0s, grant: { lease: L1, ttl: 5 } }'];
const granted = [
  ev(0.003, 'n1', 'lease-grant', L1, { ttl: 5, expiry: 5_003_000 }),
  ev(0.004, 'n2', 'lease-grant', L1, { ttl: 5, expiry: FOREVER }),
  ev(0.004, 'ctl-n1', 'ctl-granted', L1, { label: 'L1', ttl: 5 }),
];
/** Renewed at 4 s with no answer heard, then revoked on the grant's deadline: early only if the renewal counts. */
const renewed = [
  ...granted,
  ev(4, 'n1', 'lease-renew', L1, { ttl: 5, expiry: 9_000_000 }),
  // The lessor expires it on the grant's deadline, as if the renewal had never reached it.
  ev(5.5, 'n1', 'lease-expired', L1, { expiry: 5_003_000 }),
  ev(5.502, 'n1', 'lease-revoke', L1, { keys: [] }),
];

describe('monitors on hand-written traces', () => {
  it('no-early-expiry counts a renewal only once a client received a positive TTL for it', () => {
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

  it('no-early-expiry: a keep-alive answered with TTL 0 (lease not found) acknowledges no renewal', () => {
    // The client's next keep-alive after the revoke hears TTL 0, and clientv3 closes its channel.
    const heard = [
      ...renewed,
      ev(5.67, 'c1', 'client-keepalive-recv', L1, { ttl: 0 }),
      ev(5.67, 'c1', 'client-keepalive-closed', L1, { reason: 'ttl<=0' }),
    ];
    expect(MONITORS['no-early-expiry'].check(syntheticView(grantStep, heard, [['L1', L1]]))).toBeUndefined();
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

  it('read-your-grant: a put refused with ErrLeaseNotFound before any revoke says the granted lease is missing', () => {
    // A program's clientv3 Put with the lease (etcdctl would trace a ctl-error beside it).
    const refused = ev(2.004, 'c1', 'client-rpc-error', L1, {
      op: 'Put',
      endpoint: 'n2',
      error: 'ErrLeaseNotFound',
      attempt: 0,
      retry: false,
    });
    const check = (events: readonly TraceEvent[]) =>
      MONITORS['read-your-grant'].check(syntheticView(grantStep, events, [['L1', L1]]));
    const v = check([...granted, refused]);
    expect([v?.event.member, v?.event.kind, v?.atUs]).toEqual(['c1', 'client-rpc-error', 2_004_000]);
    expect(check([...granted, ev(1.5, 'n1', 'lease-revoke', L1, { keys: [] }), refused])).toBeUndefined();
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

  it('checkpoint-scheduling: a checkpoint that says remaining 0 (the full TTL) owes the next one', () => {
    // Interval 5 s, TTL 20: n1 checkpoints 15 at 5.5 s. A renewal at 7 s first clears it with remaining 0, which
    // means the full TTL (Lease.getRemainingTTL), so applying it schedules the next checkpoint for 12.003 s.
    const head = ['cluster: { lease-checkpoint: true, checkpoint-interval: 5s }'];
    const steps = ['{ at: 0s, grant: { lease: L1, ttl: 20 } }', '{ at: 7s, keepalive-once: { lease: L1 } }'];
    const cleared = [
      ev(-0.996, 'n1', 'lessor-promote', undefined, { extend: 1_000_000, leases: 0, spread: 0 }),
      ev(0.003, 'n1', 'lease-grant', L1, { ttl: 20, expiry: 20_003_000 }),
      ev(0.004, 'ctl-n1', 'ctl-granted', L1, { label: 'L1', ttl: 20 }),
      ev(5.502, 'n1', 'lease-checkpoint', L1, { remaining: 15 }),
      ev(7.003, 'n1', 'lease-checkpoint', L1, { remaining: 0 }),
      ev(7.003, 'n1', 'lease-renew', L1, { ttl: 20, expiry: 27_003_000 }),
      ev(7.004, 'ctl-n1', 'client-keepalive-once-recv', L1, { endpoint: 'n1', ttl: 20 }),
    ];
    const check = (events: readonly TraceEvent[]) =>
      MONITORS['checkpoint-scheduling'].check(syntheticView(steps, events, [['L1', L1]], head));
    // As etcd goes on: 15 left at 12 s, 10 at 17 s, 5 (not above the interval: the last) at 22 s.
    const kept = [15, 10, 5].map((r, k) => ev(12.006 + 5.004 * k, 'n1', 'lease-checkpoint', L1, { remaining: r }));
    expect(check([...cleared, ...kept])).toBeUndefined();
    expect(check(cleared)?.message).toMatch(
      /due for a checkpoint at 12\.003000 \(after lease-checkpoint at 7\.003000\)/,
    );
  });
});
