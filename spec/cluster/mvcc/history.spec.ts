import { describe, expect, it } from 'vitest';
import {
  ErrCompacted,
  ErrFutureRev,
  KvBackend,
  newStore,
  restore,
  type KeyValue,
  type MvccStore,
} from '../../../src/cluster/mvcc/index.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

// etcd 3.4.23's mvcc/kv_test.go restated as ours: each test names the Go test it restates. Each is run
// both on the store and inside a write transaction, as etcd's normal/txn function pairs do.

const kv = (key: string, value: string, create: number, mod: number, version: number, lease: bigint): KeyValue => ({
  key,
  value,
  createRevision: create,
  modRevision: mod,
  version,
  lease,
});
const plain = (kvs: readonly KeyValue[]) =>
  kvs.map(({ key, value, createRevision, modRevision, version, lease }) =>
    kv(key, value, createRevision, modRevision, version, lease),
  );

function put3(s: MvccStore): KeyValue[] {
  s.put('foo', 'bar', 1n);
  s.put('foo1', 'bar1', 2n);
  s.put('foo2', 'bar2', 3n);
  return [kv('foo', 'bar', 2, 2, 1, 1n), kv('foo1', 'bar1', 3, 3, 1, 2n), kv('foo2', 'bar2', 4, 4, 1, 3n)];
}

const store = () => newStore(new FakeLeaseIndex(1n, 2n, 3n), { member: 'n1' });

type RangeFn = typeof normalRange;
const normalRange = (s: MvccStore, key: string, end: string | undefined, o: { rev?: number; limit?: number } = {}) =>
  s.rangeKeys(key, end, o);
const txnRange: RangeFn = (s, key, end, o = {}) => {
  const t = s.txnWrite();
  try {
    return t.range(key, end, o);
  } finally {
    t.end();
  }
};

describe.each([
  ['store', normalRange],
  ['write txn', txnRange],
])('mvcc history, read via %s', (_, range) => {
  it('reads each past revision (TestKVRangeRev)', () => {
    const s = store();
    const kvs = put3(s);
    for (const [rev, want] of [
      [-1, kvs],
      [0, kvs],
      [2, kvs.slice(0, 1)],
      [3, kvs.slice(0, 2)],
      [4, kvs],
    ] as const) {
      const r = range(s, 'foo', 'foo3', { rev });
      expect(r.rev, `rev ${rev}`).toBe(4);
      expect(plain(r.kvs), `rev ${rev}`).toEqual(want);
    }
  });

  it('refuses compacted and future revisions (TestKVRangeBadRev)', () => {
    const s = store();
    put3(s);
    s.compact(4);
    for (const [rev, err] of [
      [-1, undefined],
      [0, undefined],
      [1, ErrCompacted],
      [2, ErrCompacted],
      [4, undefined],
      [5, ErrFutureRev],
      [100, ErrFutureRev],
    ] as const) {
      const run = () => range(s, 'foo', 'foo3', { rev });
      if (err === undefined) expect(run, `rev ${rev}`).not.toThrow();
      else expect(run, `rev ${rev}`).toThrow(err);
    }
  });

  it('limits without changing count or revision (TestKVRangeLimit)', () => {
    const s = store();
    const kvs = put3(s);
    for (const [limit, want] of [
      [-1, kvs],
      [0, kvs],
      [1, kvs.slice(0, 1)],
      [2, kvs.slice(0, 2)],
      [3, kvs],
      [100, kvs],
    ] as const) {
      const r = range(s, 'foo', 'foo3', { limit });
      expect(plain(r.kvs), `limit ${limit}`).toEqual(want);
      expect([r.rev, r.count]).toEqual([4, 3]);
    }
  });

  it("reads a '' end as every key from the start, undefined as the key alone", () => {
    const s = store();
    put3(s);
    expect(range(s, 'foo1', '').kvs.map((k) => k.key)).toEqual(['foo1', 'foo2']);
    expect(range(s, 'foo1', undefined).kvs.map((k) => k.key)).toEqual(['foo1']);
  });
});

describe('mvcc delete and compaction', () => {
  it.each([
    ['foo', undefined, 5, 1],
    ['foo', 'foo1', 5, 1],
    ['foo', 'foo2', 5, 2],
    ['foo', 'foo3', 5, 3],
    ['foo3', 'foo8', 4, 0],
    ['foo3', undefined, 4, 0],
  ] as const)('deletes [%s, %s) at revision %d, %d keys (TestKVDeleteRange)', (key, end, rev, n) => {
    const s = store();
    s.put('foo', 'bar');
    s.put('foo1', 'bar1');
    s.put('foo2', 'bar2');
    const r = s.deleteRange(key, end);
    expect([r.deleted, r.revision]).toEqual([n, rev]);
    expect(s.currentRevision).toBe(rev);
  });

  it('keeps the last value at or below each compaction, drops a deleted key (TestKVCompactReserveLastValue)', () => {
    const s = store();
    s.put('foo', 'bar0', 1n);
    s.put('foo', 'bar1', 2n);
    s.deleteRange('foo');
    s.put('foo', 'bar2', 3n);
    const want: [number, KeyValue[]][] = [
      [1, [kv('foo', 'bar0', 2, 2, 1, 1n)]],
      [2, [kv('foo', 'bar1', 2, 3, 2, 2n)]],
      [3, []],
      [4, [kv('foo', 'bar2', 5, 5, 1, 3n)]],
    ];
    for (const [rev, kvs] of want) {
      s.compact(rev);
      expect(plain(s.rangeKeys('foo', undefined, { rev: rev + 1 }).kvs), `compact ${rev}`).toEqual(kvs);
    }
  });

  it('refuses a compaction at or below the last one, or above the current revision (TestKVCompactBad)', () => {
    const s = store();
    s.put('foo', 'bar0');
    s.put('foo', 'bar1');
    s.put('foo', 'bar2');
    for (const [rev, err] of [
      [0, undefined],
      [1, undefined],
      [1, ErrCompacted],
      [4, undefined],
      [5, ErrFutureRev],
      [100, ErrFutureRev],
    ] as const) {
      if (err === undefined) expect(() => s.compact(rev), `compact ${rev}`).not.toThrow();
      else expect(() => s.compact(rev), `compact ${rev}`).toThrow(err);
    }
  });

  it('frees the rows compaction drops from the backend, and a restore keeps the compaction', () => {
    const backend = new KvBackend();
    const s = restore(backend, new FakeLeaseIndex(), { member: 'n1' });
    for (let i = 0; i < 10; i++) s.put('k', `${i}`);
    s.put('gone', '');
    s.deleteRange('gone');
    expect(backend.records).toHaveLength(12);
    s.compact(s.currentRevision);
    // One version of k is all any read from the compaction on can see; the deleted key leaves nothing.
    expect(backend.records.map((r) => `${r.key}@${r.modRevision}`)).toEqual(['k@11']);
    const again = restore(backend, new FakeLeaseIndex(), { member: 'n1' });
    expect(again.currentRevision).toBe(13);
    expect(again.compactRevision).toBe(13);
    expect(() => again.rangeKeys('k', undefined, { rev: 12 })).toThrow(ErrCompacted);
    expect(again.rangeKeys('k', undefined).kvs[0]?.value).toBe('9');
  });

  it('a read inside a write transaction sees its writes at the next revision, and the past below it', () => {
    const s = store();
    s.put('a', '1');
    const t = s.txnWrite();
    expect(t.range('a', undefined).rev).toBe(2);
    t.put('a', '2');
    const r = t.range('a', undefined);
    const before = t.range('a', undefined, { rev: 2 });
    t.end();
    expect([r.rev, r.kvs[0]?.value, before.kvs[0]?.value]).toEqual([3, '2', '1']);
  });
});
