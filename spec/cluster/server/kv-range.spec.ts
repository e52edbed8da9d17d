import { describe, expect, it } from 'vitest';
import type { RangeRequest } from '../../../src/cluster/server/api.js';
import { kvHarness } from './kv-harness.js';

// etcd 3.4.23's integration/v3_grpc_test.go Range/Put/DeleteRange/Compact tests restated as ours.

const keysOf = (r: { kvs: readonly { key: string }[]; more: boolean; count: number }) =>
  `${r.kvs.map((k) => k.key).join(',')} more=${r.more} count=${r.count}`;

describe('Range', () => {
  it('serves limit, sort, revision, keys-only, count-only and the revision filters (TestV3RangeRequest)', () => {
    const h = kvHarness();
    h.put('rev3', 'c'); // rev 2
    h.put('rev2', 'bb'); // rev 3
    h.put('rev1', 'a'); // rev 4
    h.put('rev2', 'b'); // rev 5: rev2 has version 2
    const range = (r: Omit<RangeRequest, 'op' | 'key'>) =>
      keysOf(h.ok('Range', { op: 'Range', key: 'rev', rangeEnd: 'rew', ...r }));
    expect(range({})).toBe('rev1,rev2,rev3 more=false count=3');
    expect(range({ limit: 2 })).toBe('rev1,rev2 more=true count=3');
    expect(range({ limit: 3 })).toBe('rev1,rev2,rev3 more=false count=3');
    expect(range({ revision: 3 })).toBe('rev2,rev3 more=false count=2');
    expect(range({ sortOrder: 'DESCEND' })).toBe('rev3,rev2,rev1 more=false count=3');
    expect(range({ sortTarget: 'CREATE' })).toBe('rev3,rev2,rev1 more=false count=3');
    expect(range({ sortTarget: 'MOD', sortOrder: 'DESCEND', limit: 1 })).toBe('rev2 more=true count=3');
    expect(range({ sortTarget: 'VERSION', sortOrder: 'DESCEND' })).toBe('rev2,rev1,rev3 more=false count=3');
    expect(range({ sortTarget: 'VALUE' })).toBe('rev1,rev2,rev3 more=false count=3');
    expect(range({ minModRevision: 3 })).toBe('rev1,rev2 more=false count=3');
    expect(range({ maxModRevision: 4 })).toBe('rev1,rev3 more=false count=3');
    expect(range({ minCreateRevision: 3, maxCreateRevision: 3 })).toBe('rev2 more=false count=3');
    expect(range({ countOnly: true })).toBe(' more=false count=3');
    expect(h.ok('Range', { op: 'Range', key: 'rev1', keysOnly: true }).kvs[0]?.value).toBe('');
    expect(keysOf(h.ok('Range', { op: 'Range', key: 'rev2', rangeEnd: '\0' }))).toBe('rev2,rev3 more=false count=2');
  });

  it('answers a compacted or future revision with OutOfRange, and an empty key with InvalidArgument', () => {
    const h = kvHarness();
    h.put('a');
    h.put('a');
    expect(h.ok('Compaction', { op: 'Compaction', revision: 3 }).header.revision).toBe(3);
    expect(h.call({ op: 'Range', key: 'a', revision: 2 })).toEqual({
      code: 'OutOfRange',
      name: 'ErrCompacted',
      message: 'etcdserver: mvcc: required revision has been compacted',
    });
    expect(h.call({ op: 'Range', key: 'a', revision: 9 })).toEqual({
      code: 'OutOfRange',
      name: 'ErrFutureRev',
      message: 'etcdserver: mvcc: required revision is a future revision',
    });
    expect(h.call({ op: 'Range', key: '' })).toMatchObject({
      code: 'InvalidArgument',
      message: 'etcdserver: key is not provided',
    });
  });

  it('refuses compacting again at the same revision or past the current one (TestV3CompactCurrentRev)', () => {
    const h = kvHarness();
    h.put('a');
    expect(h.call({ op: 'Compaction', revision: 2 })).toMatchObject({ op: 'Compaction' });
    expect(h.call({ op: 'Compaction', revision: 2 })).toMatchObject({ code: 'OutOfRange', name: 'ErrCompacted' });
    expect(h.call({ op: 'Compaction', revision: 3 })).toMatchObject({ code: 'OutOfRange', name: 'ErrFutureRev' });
    // The compacted key keeps its latest version.
    expect(h.ok('Range', { op: 'Range', key: 'a' }).kvs[0]?.modRevision).toBe(2);
  });
});

describe('Put and DeleteRange', () => {
  it('keeps value or lease of an existing key (TestV3PutIgnoreValue, TestV3PutIgnoreLease)', () => {
    const h = kvHarness();
    const l = h.grant(60);
    expect(h.call({ op: 'Put', key: 'foo', value: '', lease: 0n, ignoreValue: true })).toMatchObject({
      code: 'InvalidArgument',
      name: 'ErrKeyNotFound',
      message: 'etcdserver: key not found',
    });
    h.put('foo', 'bar', l);
    expect(h.call({ op: 'Put', key: 'foo', value: 'x', lease: 0n, ignoreValue: true })).toMatchObject({
      message: 'etcdserver: value is provided',
    });
    expect(h.call({ op: 'Put', key: 'foo', value: '', lease: l, ignoreLease: true })).toMatchObject({
      message: 'etcdserver: lease is provided',
    });
    const r = h.ok('Put', { op: 'Put', key: 'foo', value: '', lease: 0n, ignoreValue: true, prevKv: true });
    expect(r.prevKv).toMatchObject({ value: 'bar', lease: l, version: 1 });
    // ignore_value keeps "bar" but the lease is the request's (none); ignore_lease keeps that.
    h.ok('Put', { op: 'Put', key: 'foo', value: 'baz', lease: 0n, ignoreLease: true });
    expect(h.ok('Range', { op: 'Range', key: 'foo' }).kvs[0]).toMatchObject({ value: 'baz', lease: 0n, version: 3 });
  });

  it('deletes a range and returns the deleted keys with prev_kv (TestV3DeleteRange)', () => {
    const h = kvHarness();
    for (const k of ['foo', 'foo/abc', 'fop']) h.put(k, k);
    const r = h.ok('DeleteRange', { op: 'DeleteRange', key: 'foo/', rangeEnd: 'foo0', prevKv: true });
    expect([r.deleted, r.prevKvs?.map((k) => k.key)]).toEqual([1, ['foo/abc']]);
    const all = h.ok('DeleteRange', { op: 'DeleteRange', key: 'a', rangeEnd: '\0' });
    expect([all.deleted, all.header.revision]).toEqual([2, 6]);
    expect(h.ok('DeleteRange', { op: 'DeleteRange', key: 'foo' }).header.revision).toBe(6);
  });
});
