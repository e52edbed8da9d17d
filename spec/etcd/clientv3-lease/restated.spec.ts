import { describe, expect, it } from 'vitest';
import { restatedSuite } from '../restated.js';
import { LEASE_TEST, LEASING_TEST } from './index.js';

restatedSuite('spec/etcd/clientv3-lease', LEASE_TEST);

// leasing_test.go has no scenario (its subject is not in the model): its list is checked here.
describe(LEASING_TEST.source, () => {
  it('lists its 43 test functions once each, each with the reason', () => {
    const names = LEASING_TEST.tests.map((t) => t.test);
    expect(names).toHaveLength(43);
    expect(new Set(names).size).toBe(names.length);
    for (const t of LEASING_TEST.tests) expect('reason' in t && t.reason.length > 10, t.test).toBe(true);
  });
});
