// The worked example of docs/properties.md, as a test: a user's own property over generated runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BugName } from '../../src/switches/bugs.js';
import { findCounterexample, leaseProperty, type LeasePropertyOptions } from '../../src/properties/index.js';
import { fcParams } from '../support/fc.js';

// 3-member clusters with checkpointing on, a workload of keep-alive clients and renewals, and a fault
// schedule of leader transfers, crashes and raft stalls.
const options = (bugs: BugName[]): LeasePropertyOptions => ({
  setup: { members: [3], checkpoint: true, bugs },
  workload: { ttl: { min: 3, max: 10 }, weights: { revoke: 0, delete: 0 } },
  faults: {
    weights: {
      'transfer-leader': 3,
      crash: 1,
      restart: 1,
      'stall-raft': 2,
      partition: 0,
      heal: 0,
      'pause-member': 0,
      'pause-client': 0,
      'stall-apply': 0,
      clock: 0,
    },
  },
  properties: ['no-early-expiry', 'single-acting-primary'],
});

describe('the worked example', () => {
  it('holds on the fixed model', () => {
    fc.assert(leaseProperty(options([])), fcParams(40));
  });

  it('finds a stuck leader revoking a lease renewed on the new one, as a scenario file', () => {
    const cx = findCounterexample(options(['no-leadership-check-on-revoke']), fcParams(300));
    expect(cx?.violation.property).toMatch(/no-early-expiry|single-acting-primary/);
    expect(cx?.yaml).toMatch(/stall: \{ member: n\d, loop: raft/);
    expect(cx?.expect).toBeDefined();
  });
});
