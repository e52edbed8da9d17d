// Every historical bug switch (and A1, lease checkpointing off) is found by the property suite within
// 1000 runs of its targeted family with the switch on, and the same runs (same seeds, the same
// schedules) violate nothing with it off. The off side checks OFF_RUNS runs per bug to keep the file fast.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { checkRun, type PropertyName } from '../../src/properties/index.js';
import { BUG_FAMILIES, CHECKPOINTING_OFF, type FamilyName } from '../../src/properties/families/bug-families.js';
import { fcParams } from '../support/fc.js';

const ON_RUNS = 1000;
const OFF_RUNS = Number(process.env.OFF_RUNS ?? 400);

/** The property each family is meant to trip (the catalogue's "Property" line for the bug). */
const CAUGHT_BY: { readonly [F in FamilyName]: readonly PropertyName[] } = {
  'promote-on-election': ['promotion-ordering', 'no-early-expiry'],
  'no-checkpoint-schedule-on-promote': ['checkpoint-scheduling'],
  'checkpoints-not-persisted': ['member-agreement', 'bounded-extension'],
  'no-promote-spreading': ['rate-limits'],
  'no-revoke-rate-limit': ['rate-limits'],
  'no-expired-lease-retry': ['eventual-revocation'],
  'renew-expired-lease': ['no-early-expiry'],
  'renew-without-apply-wait': ['read-your-grant'],
  'renew-skips-recheck': ['no-renew-after-revoke'],
  'no-leadership-check-on-revoke': ['no-early-expiry', 'single-acting-primary'],
  'no-leadership-check-on-renew': ['no-early-expiry'],
  'ttl-on-demoted-lessor': ['timetolive-sanity'],
  'register-expiry-on-followers': ['resource-invariants'],
  'expiry-queue-uses-wall-clock': ['wall-clock-independence', 'eventual-revocation'],
  'lock-skips-post-wait-check': ['fenced-locks'],
  [CHECKPOINTING_OFF]: ['bounded-drift'],
};

const seed = fcParams(1).seed!;

describe('bug detection', () => {
  it('has a family for every bug switch, and for A1', () => {
    expect(Object.keys(BUG_FAMILIES).sort()).toEqual([...BUG_NAMES, CHECKPOINTING_OFF].sort());
  });

  for (const name of Object.keys(BUG_FAMILIES) as FamilyName[]) {
    const family = BUG_FAMILIES[name];
    it(`${name} (${family.catalogue}): found with the switch on, nothing with it off`, () => {
      const on = fc.sample(family.arb(true), { seed, numRuns: ON_RUNS });
      const hit = on.findIndex((run) => checkRun(run).violation !== undefined);
      expect(hit, 'no run of the family violated a property with the bug on').toBeGreaterThanOrEqual(0);
      expect(CAUGHT_BY[name]).toContain(checkRun(on[hit]!).violation!.property);
      const off = fc.sample(family.arb(false), { seed, numRuns: OFF_RUNS });
      for (const run of off) {
        const v = checkRun(run).violation;
        expect(v, v && `${v.property}: ${v.message}`).toBeUndefined();
      }
    });
  }
});
