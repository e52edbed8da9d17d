// Each monitor on a hand-written scenario: with the historical bug switched on it reports its property at
// the first violating event (whose trace line it names); with the switch off, no property is violated.
import { describe, expect, it } from 'vitest';
import { formatEvent } from '../../src/trace/trace.js';
import type { PropertyName } from '../../src/properties/index.js';
import { judge, withBug } from './support.js';

interface Case {
  readonly property: PropertyName;
  readonly bug: string;
  readonly head?: readonly string[];
  readonly steps: readonly string[];
  /** The first violating event: `t member kind`. */
  readonly event: string;
}

const CASES: readonly Case[] = [
  {
    property: 'no-early-expiry',
    bug: 'renew-expired-lease',
    // The renewal lands 0.5 ms after the tick that found L1 expired and before its revoke applies.
    steps: ['{ at: 100ms, grant: { lease: L1, ttl: 2 } }', '{ at: 2.4995s, keepalive-once: { lease: L1 } }'],
    event: '2.502000 n1 lease-revoke',
  },
  {
    property: 'no-renew-after-revoke',
    bug: 'renew-skips-recheck',
    head: ['cluster: { lease-checkpoint: true, checkpoint-interval: 2s }'],
    steps: [
      '{ at: 100ms, grant: { lease: L1, ttl: 10 } }',
      '{ at: 2.999s, revoke: { lease: L1 } }',
      '{ at: 3s, keepalive-once: { lease: L1 } }',
    ],
    event: '3.003000 n1 lease-renew',
  },
  {
    property: 'promotion-ordering',
    bug: 'promote-on-election',
    // n1 crashes after its revoke of L1 reached the followers (2.501) and before it committed (2.502).
    steps: [
      '{ at: 100ms, grant: { lease: L1, ttl: 2 } }',
      '{ at: 2.5015s, crash: { member: n1 } }',
      '{ at: 6s, restart: { member: n1 } }',
    ],
    event: '4.004000 n2 lease-revoke',
  },
  {
    property: 'read-your-grant',
    bug: 'renew-without-apply-wait',
    steps: [
      '{ at: 100ms, grant: { lease: L1, ttl: 5, via: n2 } }',
      '{ at: 100ms, keepalive: { lease: L1, client: c1, via: n1 } }',
      '{ at: 102.5ms, stall: { member: n1, loop: apply, for: 1s } }',
    ],
    event: '0.108000 c1 client-keepalive-recv',
  },
  {
    property: 'timetolive-sanity',
    bug: 'ttl-on-demoted-lessor',
    steps: [
      '{ at: 100ms, grant: { lease: L1, ttl: 8 } }',
      '{ at: 1s, stall: { member: n1, loop: apply, for: 500ms } }',
      '{ at: 1.001s, put: { key: /k, value: v, via: n1 } }',
      '{ at: 1.005s, timetolive: { lease: L1, via: n1 } }',
      '{ at: 1.1s, transfer-leader: { to: n2 } }',
    ],
    event: '1.501000 ctl ctl-ok',
  },
  {
    property: 'checkpoint-scheduling',
    bug: 'no-checkpoint-schedule-on-promote',
    head: ['cluster: { lease-checkpoint: true, checkpoint-interval: 3s }', 'duration: 10s'],
    steps: ['{ at: 100ms, grant: { lease: L1, ttl: 12 } }', '{ at: 4s, transfer-leader: { to: n2 } }'],
    event: '4.005000 n2 lease-promoted',
  },
  {
    property: 'member-agreement',
    bug: 'checkpoints-not-persisted',
    head: ['cluster: { lease-checkpoint: true, lease-checkpoint-persist: true, checkpoint-interval: 2s }'],
    steps: [
      '{ at: 100ms, grant: { lease: L1, ttl: 30 } }',
      '{ at: 4.6s, crash: { member: n2 } }',
      '{ at: 4.7s, restart: { member: n2 } }',
      '{ at: 4.9s, transfer-leader: { to: n2 } }',
    ],
    event: '4.700000 n2 member-restart',
  },
  {
    property: 'fenced-locks',
    bug: 'lock-skips-post-wait-check',
    steps: [
      '{ at: 100ms, lock: { name: /l, client: c1, ttl: 10 } }',
      '{ at: 200ms, lock: { name: /l, client: c2, ttl: 2 } }',
      '{ at: 300ms, pause: { client: c2, for: 5s } }',
      '{ at: 4s, unlock: { name: /l, client: c1 } }',
    ],
    event: '5.304000 c2 client-lock-acquired',
  },
];

describe('property monitors', () => {
  for (const c of CASES) {
    it(`${c.property} reports the first event of ${c.bug}, and nothing without it`, () => {
      const on = judge(withBug(c.bug, c.head), c.steps);
      const v = on.violations.find((x) => x.property === c.property);
      expect(v, `no ${c.property} violation; got ${on.violations.map((x) => x.property).join(', ')}`).toBeDefined();
      expect(formatEvent(v!.event).startsWith(`${c.event} `)).toBe(true);
      expect(formatEvent(on.result.trace.events[v!.traceLine - 1]!)).toBe(formatEvent(v!.event));
      expect(judge(c.head ?? [], c.steps).violations).toEqual([]);
    });
  }

  it('leave alone a revoke the client asked for', () => {
    const steps = [
      '{ at: 100ms, grant: { lease: L1, ttl: 10 } }',
      '{ at: 1s, keepalive-once: { lease: L1 } }',
      '{ at: 2s, revoke: { lease: L1 } }',
    ];
    expect(judge([], steps).violations).toEqual([]);
  });
});
