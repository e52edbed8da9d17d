import { describe, expect, it } from 'vitest';
import { newStore } from '../../../src/cluster/mvcc/index.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

const fresh = () => newStore(new FakeLeaseIndex(), { member: 'n1' });

describe('mvcc revisions', () => {
  it('starts at revision 1; the first write gets revision 2', () => {
    const s = fresh();
    expect(s.currentRevision).toBe(1);
    expect(s.put('/a', 'x')).toEqual({ ok: true, revision: 2 });
    expect(s.currentRevision).toBe(2);
  });

  it('bumps by one per create, update and delete; a missing delete does not bump', () => {
    const s = fresh();
    s.put('/a', '1');
    expect(s.put('/b', '1')).toEqual({ ok: true, revision: 3 });
    expect(s.put('/a', '2')).toEqual({ ok: true, revision: 4 });
    expect(s.deleteRange('/a')).toEqual({ deleted: 1, revision: 5 });
    expect(s.deleteRange('/a')).toEqual({ deleted: 0, revision: 5 });
    expect(s.deleteRange('/never')).toEqual({ deleted: 0, revision: 5 });
    expect(s.currentRevision).toBe(5);
  });

  it('keeps createRevision across updates, counts versions, and starts afresh after a delete', () => {
    const s = fresh();
    s.put('/a', '1'); // 2
    s.put('/b', '1'); // 3
    s.put('/a', '2'); // 4
    expect(s.range('/a')).toMatchObject({
      key: '/a',
      value: '2',
      createRevision: 2,
      modRevision: 4,
      version: 2,
      lease: 0n,
    });
    s.deleteRange('/a'); // 5
    expect(s.range('/a')).toBeUndefined();
    s.put('/a', '3'); // 6
    expect(s.range('/a')).toMatchObject({ value: '3', createRevision: 6, modRevision: 6, version: 1 });
    expect(s.range('/b')).toMatchObject({ createRevision: 3, modRevision: 3, version: 1 });
  });

  it('gives every change of a transaction one main revision and sub-revisions in order', () => {
    const s = fresh();
    s.put('/y', 'old'); // 2
    const txn = s.txnWrite();
    expect(txn.deleteRange('/missing')).toEqual({ deleted: 0, revision: 2 });
    expect(txn.put('/x', '1')).toEqual({ ok: true, revision: 3 });
    expect(txn.put('/x', '2')).toEqual({ ok: true, revision: 3 });
    expect(txn.deleteRange('/y')).toEqual({ deleted: 1, revision: 3 });
    expect(txn.deleteRange('/missing')).toEqual({ deleted: 0, revision: 3 });
    expect(s.currentRevision).toBe(2);
    expect(txn.end()).toBe(3);
    expect(s.currentRevision).toBe(3);
    // The second put sees the first: same generation, version 2.
    expect(s.range('/x')).toMatchObject({ value: '2', createRevision: 3, modRevision: 3, version: 2 });
    expect(s.backend.records.slice(1).map((r) => [r.key, r.modRevision, r.subRevision, r.tombstone])).toEqual([
      ['/x', 3, 0, false],
      ['/x', 3, 1, false],
      ['/y', 3, 2, true],
    ]);
  });

  it('a put then a delete of the same key in one transaction leaves it deleted at one revision', () => {
    const s = fresh();
    const txn = s.txnWrite();
    txn.put('/k', 'v');
    txn.deleteRange('/k');
    expect(txn.end()).toBe(2);
    expect(s.range('/k')).toBeUndefined();
    s.put('/k', 'again');
    expect(s.range('/k')).toMatchObject({ createRevision: 3, version: 1 });
  });

  it('does not bump for a transaction that changed nothing', () => {
    const s = fresh();
    s.put('/a', '1');
    expect(s.txnWrite().end()).toBe(2);
    const txn = s.txnWrite();
    txn.deleteRange('/b');
    expect(txn.end()).toBe(2);
    expect(s.currentRevision).toBe(2);
    expect(s.backend.records).toHaveLength(1);
  });

  it('refuses a second open transaction and a transaction used after end', () => {
    const s = fresh();
    const txn = s.txnWrite();
    expect(() => s.txnWrite()).toThrow(/already open/);
    expect(() => s.put('/a', '1')).toThrow(/already open/);
    txn.end();
    expect(() => txn.put('/a', '1')).toThrow(/after end/);
    expect(() => txn.end()).toThrow(/after end/);
    expect(s.put('/a', '1')).toEqual({ ok: true, revision: 2 });
  });

  it('ranges a prefix and the whole keyspace in key order', () => {
    const s = fresh();
    for (const k of ['/b/2', '/a', '/b/1', '/c', '/b', '/b0']) s.put(k, k);
    s.deleteRange('/b/2');
    expect(s.range('/b/', { prefix: true }).map((kv) => kv.key)).toEqual(['/b/1']);
    expect(s.range('/b', { prefix: true }).map((kv) => kv.key)).toEqual(['/b', '/b/1', '/b0']);
    expect(s.rangeAll().map((kv) => kv.key)).toEqual(['/a', '/b', '/b/1', '/b0', '/c']);
    expect(s.range('/z', { prefix: true })).toEqual([]);
  });
});
