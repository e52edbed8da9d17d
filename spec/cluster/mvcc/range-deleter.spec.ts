import { describe, expect, it } from 'vitest';
import { newStore, type WatchEvent } from '../../../src/cluster/mvcc/index.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

function leasedStore() {
  const idx = new FakeLeaseIndex(1n, 2n);
  const s = newStore(idx, { member: 'n1' });
  for (const k of ['/b', '/a', '/c']) s.put(k, k, 1n); // revisions 2, 3, 4
  s.put('/other', 'x', 2n); // 5
  const batches: WatchEvent[][] = [];
  s.watch('', { prefix: true }, (evs) => batches.push(evs));
  const onB: WatchEvent[][] = [];
  s.watch('/b', {}, (evs) => onB.push(evs));
  return { idx, s, batches, onB };
}

describe('mvcc rangeDeleter (the Revoke transaction)', () => {
  it('deletes sorted keys at one revision and delivers DELETEs in sub-revision order, once', () => {
    const { idx, s, batches, onB } = leasedStore();
    const txn = s.rangeDeleter();
    expect(['/a', '/b', '/c'].map((k) => txn.deleteRange(k))).toEqual([
      { deleted: 1, revision: 6 },
      { deleted: 1, revision: 6 },
      { deleted: 1, revision: 6 },
    ]);
    expect(batches).toEqual([]);
    expect(txn.end()).toBe(6);
    expect(s.currentRevision).toBe(6);
    expect(batches).toEqual([
      [
        { type: 'DELETE', key: '/a', revision: 6, subRevision: 0, lease: 0n },
        { type: 'DELETE', key: '/b', revision: 6, subRevision: 1, lease: 0n },
        { type: 'DELETE', key: '/c', revision: 6, subRevision: 2, lease: 0n },
      ],
    ]);
    expect(onB).toEqual([[{ type: 'DELETE', key: '/b', revision: 6, subRevision: 1, lease: 0n }]]);
    expect(s.rangeAll().map((kv) => kv.key)).toEqual(['/other']);
    expect([...idx.itemSets.get(1n)!]).toEqual([]);
  });

  it('is what a lessor revoke runs: one bump for the lease, the other lease untouched', () => {
    const { idx, s, batches } = leasedStore();
    expect(idx.revoke(1n, s.rangeDeleter)).toBe(6);
    expect(batches.map((b) => b.map((e) => `${e.type} ${e.key} ${e.revision}.${e.subRevision}`))).toEqual([
      ['DELETE /a 6.0', 'DELETE /b 6.1', 'DELETE /c 6.2'],
    ]);
    expect(idx.getLease('/other')).toBe(2n);
  });

  it('does not bump or notify when nothing was deleted (a lease without keys)', () => {
    const { s, batches } = leasedStore();
    const txn = s.rangeDeleter();
    expect(txn.deleteRange('/gone')).toEqual({ deleted: 0, revision: 5 });
    expect(txn.end()).toBe(5);
    const idx2 = new FakeLeaseIndex(9n);
    const s2 = newStore(idx2, { member: 'n2' });
    expect(idx2.revoke(9n, s2.rangeDeleter)).toBe(1);
    expect(s.currentRevision).toBe(5);
    expect(batches).toEqual([]);
  });
});
