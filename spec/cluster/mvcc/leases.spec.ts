import { describe, expect, it } from 'vitest';
import { newStore, type LeaseIndex } from '../../../src/cluster/mvcc/index.js';
import { Trace } from '../../../src/trace/trace.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

describe('mvcc lease attach and detach (kvstore_txn.go)', () => {
  it('attaches on a put with a lease', () => {
    const idx = new FakeLeaseIndex(1n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v', 1n);
    expect(idx.takeCalls()).toEqual([{ op: 'attach', id: 1n, keys: ['/a'] }]);
    expect(idx.getLease('/a')).toBe(1n);
    expect(s.range('/a')?.lease).toBe(1n);
  });

  it('detaches the old lease before attaching the new one; the same lease is re-attached', () => {
    const idx = new FakeLeaseIndex(1n, 2n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v', 1n);
    idx.takeCalls();
    s.put('/a', 'w', 2n);
    expect(idx.takeCalls()).toEqual([
      { op: 'detach', id: 1n, keys: ['/a'] },
      { op: 'attach', id: 2n, keys: ['/a'] },
    ]);
    // Attach alone would leave /a in lease 1's item set.
    expect([...idx.itemSets.get(1n)!]).toEqual([]);
    s.put('/a', 'x', 2n);
    expect(idx.takeCalls()).toEqual([
      { op: 'detach', id: 2n, keys: ['/a'] },
      { op: 'attach', id: 2n, keys: ['/a'] },
    ]);
    expect(idx.getLease('/a')).toBe(2n);
  });

  it('detaches on a put with lease 0', () => {
    const idx = new FakeLeaseIndex(1n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v', 1n);
    idx.takeCalls();
    s.put('/a', 'w');
    expect(idx.takeCalls()).toEqual([{ op: 'detach', id: 1n, keys: ['/a'] }]);
    expect(idx.getLease('/a')).toBe(0n);
    expect(s.range('/a')?.lease).toBe(0n);
  });

  it('calls nothing for an unleased key', () => {
    const idx = new FakeLeaseIndex(1n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v');
    s.put('/a', 'w');
    s.deleteRange('/a');
    expect(idx.takeCalls()).toEqual([]);
  });

  it('detaches on delete', () => {
    const idx = new FakeLeaseIndex(1n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v', 1n);
    s.put('/b', 'v', 1n);
    idx.takeCalls();
    s.deleteRange('/a');
    expect(idx.takeCalls()).toEqual([{ op: 'detach', id: 1n, keys: ['/a'] }]);
    expect([...idx.itemSets.get(1n)!]).toEqual(['/b']);
  });

  it('refuses a put with an unknown lease without writing or bumping', () => {
    const idx = new FakeLeaseIndex(1n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v', 1n);
    idx.takeCalls();
    expect(s.put('/b', 'v', 7n)).toEqual({ ok: false, error: 'lease-not-found' });
    expect(s.put('/a', 'changed', 7n)).toEqual({ ok: false, error: 'lease-not-found' });
    expect(s.currentRevision).toBe(2);
    expect(s.range('/b')).toBeUndefined();
    expect(s.range('/a')).toMatchObject({ value: 'v', lease: 1n, version: 1 });
    expect(s.backend.records).toHaveLength(1);
    expect(idx.takeCalls()).toEqual([]);
  });

  it('a revoke never deletes a key that was re-put without the lease', () => {
    const idx = new FakeLeaseIndex(1n);
    const s = newStore(idx, { member: 'n1' });
    s.put('/a', 'v', 1n); // 2
    s.put('/a', 'w'); // 3
    expect(idx.revoke(1n, s.rangeDeleter)).toBe(3);
    expect(s.range('/a')).toMatchObject({ value: 'w' });
  });

  it('logs a failed detach and carries on (the lease is gone)', () => {
    const idx = new FakeLeaseIndex(1n);
    const trace = new Trace();
    const s = newStore(idx, { member: 'n1', trace, now: () => 5 });
    s.put('/a', 'v', 1n);
    idx.forget(1n);
    expect(s.put('/a', 'w')).toEqual({ ok: true, revision: 3 });
    expect(s.deleteRange('/a')).toEqual({ deleted: 1, revision: 4 });
    expect(trace.lines().filter((l) => l.includes('detach'))).toEqual([
      '0.000005 n1 kv-detach-failed 1 key=/a',
      '0.000005 n1 kv-detach-failed 1 key=/a',
    ]);
  });

  it('surfaces a failed attach as an error, as etcd panics', () => {
    const broken: LeaseIndex = {
      lookup: () => true,
      getLease: () => 0n,
      attach: () => {
        throw new Error('lease not found');
      },
      detach: () => {},
    };
    const s = newStore(broken, { member: 'n1' });
    expect(() => s.put('/a', 'v', 0x2an)).toThrow(/attaching \/a to lease 2a failed.*etcd panics/);
  });
});
