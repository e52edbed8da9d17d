import { describe, expect, it } from 'vitest';
import { newStore, restore, type KvBackend, type WatchEvent } from '../../../src/cluster/mvcc/index.js';
import { Trace } from '../../../src/trace/trace.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

/** Runs `writes` on a fresh store and returns the backend a crash would leave behind. */
function crashAfter(leases: bigint[], writes: (s: ReturnType<typeof newStore>) => void): KvBackend {
  const s = newStore(new FakeLeaseIndex(...leases), { member: 'n1' });
  writes(s);
  return s.backend;
}

describe('mvcc restore (kvstore.go restore, docs/lessor.md §4.12)', () => {
  it('brings back revisions, versions and deletions; later writes continue the count', () => {
    const backend = crashAfter([], (s) => {
      s.put('/a', '1'); // 2
      s.put('/a', '2'); // 3
      s.put('/b', '1'); // 4
      s.deleteRange('/b'); // 5
      s.put('/c', '1'); // 6
    });
    const s = restore(backend, new FakeLeaseIndex(), { member: 'n1' });
    expect(s.currentRevision).toBe(6);
    expect(s.rangeAll()).toMatchObject([
      { key: '/a', value: '2', createRevision: 2, modRevision: 3, version: 2 },
      { key: '/c', value: '1', createRevision: 6, modRevision: 6, version: 1 },
    ]);
    expect(s.put('/b', 'again')).toEqual({ ok: true, revision: 7 });
    expect(s.range('/b')).toMatchObject({ createRevision: 7, version: 1 });
    expect(s.put('/a', '3')).toEqual({ ok: true, revision: 8 });
    expect(s.range('/a')).toMatchObject({ createRevision: 2, version: 3 });
  });

  it('keeps a key whose lease is gone, with the lease in its record but unattached', () => {
    const backend = crashAfter([1n, 2n], (s) => {
      s.put('/a', 'v', 1n);
      s.put('/b', 'v', 2n);
    });
    const idx = new FakeLeaseIndex(2n); // lease 1 did not survive
    const trace = new Trace();
    const s = restore(backend, idx, { member: 'n1', trace });
    expect(s.range('/a')).toMatchObject({ value: 'v', lease: 1n });
    expect(idx.getLease('/a')).toBe(0n);
    expect(idx.getLease('/b')).toBe(2n);
    expect(trace.lines()).toEqual(['0.000000 n1 kv-restore-attach-failed 1 key=/a']);
    // Nothing will ever delete it through a lease: a delete finds no lease to detach.
    idx.takeCalls();
    s.deleteRange('/a');
    expect(idx.takeCalls()).toEqual([]);
  });

  it('does not re-attach a key re-put without its lease (TestV3LeaseRecoverKeyWithDetachedLease)', () => {
    const backend = crashAfter([1n], (s) => {
      s.put('/k', 'leased', 1n);
      s.put('/k', 'plain');
    });
    const idx = new FakeLeaseIndex(1n);
    const s = restore(backend, idx, { member: 'n1' });
    expect(idx.calls).toEqual([]);
    expect(idx.revoke(1n, s.rangeDeleter)).toBe(3);
    expect(s.range('/k')).toMatchObject({ value: 'plain', lease: 0n });
  });

  it('attaches only the latest version’s lease (TestV3LeaseRecoverKeyWithMutipleLease)', () => {
    const backend = crashAfter([1n, 2n], (s) => {
      s.put('/k', 'one', 1n);
      s.put('/k', 'two', 2n);
    });
    const idx = new FakeLeaseIndex(1n, 2n);
    const s = restore(backend, idx, { member: 'n1' });
    expect(idx.takeCalls()).toEqual([{ op: 'attach', id: 2n, keys: ['/k'] }]);
    expect(idx.revoke(1n, s.rangeDeleter)).toBe(3);
    expect(s.range('/k')).toMatchObject({ value: 'two' });
    expect(idx.revoke(2n, s.rangeDeleter)).toBe(4);
    expect(s.range('/k')).toBeUndefined();
  });

  it('does not attach a deleted key, and attaches live keys in key order', () => {
    const backend = crashAfter([1n], (s) => {
      s.put('/z', 'v', 1n);
      s.put('/gone', 'v', 1n);
      s.put('/m', 'v', 1n);
      s.deleteRange('/gone');
      s.put('/a', 'v', 1n);
    });
    const idx = new FakeLeaseIndex(1n);
    restore(backend, idx, { member: 'n1' });
    expect(idx.calls.map((c) => c.keys[0])).toEqual(['/a', '/m', '/z']);
  });

  it('replays watch history from the backend after a restart', () => {
    const backend = crashAfter([], (s) => {
      s.put('/a', '1'); // 2
      const txn = s.txnWrite(); // 3
      txn.put('/a', '2');
      txn.put('/b', '1');
      txn.end();
    });
    const s = restore(backend, new FakeLeaseIndex(), { member: 'n1' });
    const got: WatchEvent[][] = [];
    s.watch('', { prefix: true, fromRevision: 3 }, (evs) => got.push(evs));
    expect(got).toEqual([
      [
        { type: 'PUT', key: '/a', revision: 3, subRevision: 0, value: '2', lease: 0n },
        { type: 'PUT', key: '/b', revision: 3, subRevision: 1, value: '1', lease: 0n },
      ],
    ]);
  });
});
