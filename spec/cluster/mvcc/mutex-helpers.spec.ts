import { describe, expect, it } from 'vitest';
import { newStore } from '../../../src/cluster/mvcc/index.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

function lockStore() {
  const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
  s.put('/lock/c', ''); // 2
  s.put('/lock/a', ''); // 3
  s.put('/lockx/0', ''); // 4: shares the string prefix "/lock" but not "/lock/"
  s.put('/lock/b', ''); // 5
  s.put('/lock', ''); // 6
  return s;
}

describe('mvcc helpers for concurrency.Mutex', () => {
  it('firstCreated is the smallest createRevision under the prefix, not the smallest key', () => {
    const s = lockStore();
    expect(s.firstCreated('/lock/')?.key).toBe('/lock/c');
    s.put('/lock/c', 'updated'); // an update keeps the createRevision
    expect(s.firstCreated('/lock/')?.key).toBe('/lock/c');
    s.deleteRange('/lock/c');
    expect(s.firstCreated('/lock/')?.key).toBe('/lock/a');
    s.put('/lock/c', ''); // re-created: now the newest
    expect(s.firstCreated('/lock/')?.key).toBe('/lock/a');
    expect(s.firstCreated('/none/')).toBeUndefined();
  });

  it('lastCreatedBefore is the largest createRevision strictly below the given revision', () => {
    const s = lockStore();
    expect(s.lastCreatedBefore('/lock/', 5)?.key).toBe('/lock/a');
    expect(s.lastCreatedBefore('/lock/', 4)?.key).toBe('/lock/a');
    expect(s.lastCreatedBefore('/lock/', 3)?.key).toBe('/lock/c');
    expect(s.lastCreatedBefore('/lock/', 2)).toBeUndefined();
    expect(s.lastCreatedBefore('/lock/', 100)?.key).toBe('/lock/b');
    expect(s.lastCreatedBefore('/lock', 100)?.key).toBe('/lock');
  });

  it('breaks createRevision ties by the smallest key', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    const txn = s.txnWrite();
    txn.put('/l/y', '');
    txn.put('/l/x', '');
    txn.end();
    s.put('/l/z', '');
    expect(s.firstCreated('/l/')?.key).toBe('/l/x');
    expect(s.lastCreatedBefore('/l/', 3)?.key).toBe('/l/x');
  });
});
