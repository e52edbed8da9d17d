// The property toolkit from `lessor-sim/properties` in a user's own suite: a fast-check property over
// generated runs, once through fc.assert and once through @fast-check/vitest's test.prop.
import { test as propTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { checkRun, leaseProperty, runArb, type LeasePropertyOptions } from 'lessor-sim/properties';
import { expect, test } from 'vitest';

const options: LeasePropertyOptions = {
  setup: { members: [3] },
  workload: { ttl: { min: 3, max: 8 } },
  faults: false,
  maxCommands: 12,
  properties: ['no-early-expiry', 'key-lease-atomicity'],
};

test('no generated run of the fixed model revokes a lease early (fc.assert)', () => {
  fc.assert(leaseProperty(options), { numRuns: 8, seed: 7 });
}, 60_000);

propTest.prop([runArb(options)], { numRuns: 8, seed: 11 })(
  'every generated run replays with no violation (test.prop)',
  (run) => {
    const verdict = checkRun(run, { properties: ['no-early-expiry', 'key-lease-atomicity'] });
    expect(verdict.violation).toBeUndefined();
    expect(verdict.result.trace.length).toBeGreaterThan(0);
  },
  60_000,
);
