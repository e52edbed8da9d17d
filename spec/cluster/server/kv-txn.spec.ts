import { describe, expect, it } from 'vitest';
import type { Compare, RequestOp, ResponseOp, TxnRequest } from '../../../src/cluster/server/api.js';
import { bigints, kvHarness } from './kv-harness.js';

// etcd 3.4.23's integration/v3_grpc_test.go Txn tests restated as ours; each names the Go test.

const txn = (t: Partial<Omit<TxnRequest, 'op'>>): TxnRequest => ({
  op: 'Txn',
  compare: [],
  success: [],
  failure: [],
  ...t,
});
const put = (key: string, value = ''): RequestOp => ({ op: 'Put', key, value, lease: 0n });
const delKey = (key: string, rangeEnd?: string): RequestOp => ({
  op: 'DeleteRange',
  key,
  ...(rangeEnd !== undefined ? { rangeEnd } : {}),
});

describe('Txn compares', () => {
  it('holds a range compare for every key, fails VALUE on no key (TestV3TxnRangeCompare)', () => {
    const h = kvHarness();
    for (const k of ['/a/2', '/a/3', '/a/4', '/f/5']) h.put(k, 'x');
    const cases: [Compare, boolean][] = [
      [{ key: '/a/', rangeEnd: '\0', target: 'CREATE', result: 'LESS', createRevision: 6 }, true],
      [{ key: '/a/', rangeEnd: '\0', target: 'CREATE', result: 'LESS', createRevision: 5 }, false],
      [{ key: '/a/', rangeEnd: '/a0', target: 'CREATE', result: 'LESS', createRevision: 5 }, true],
      [{ key: '/a/', rangeEnd: '/a0', target: 'CREATE', result: 'LESS', createRevision: 4 }, false],
      [{ key: '/b/', rangeEnd: '/b0', target: 'VALUE', result: 'EQUAL', value: 'x' }, false],
      [{ key: '/a/', rangeEnd: '/a0', target: 'LEASE', result: 'GREATER', lease: 0n }, false],
      [{ key: '/a/', rangeEnd: '/a0', target: 'LEASE', result: 'EQUAL', lease: 0n }, true],
    ];
    for (const [c, want] of cases)
      expect(h.ok('Txn', txn({ compare: [c] })).succeeded, JSON.stringify(c, bigints)).toBe(want);
  });

  it('compares every target with every operator, a missing key as zero', () => {
    const h = kvHarness();
    const l = h.grant(60);
    h.put('k', 'm');
    h.put('k', 'm', l); // version 2, create 2, mod 3
    const field: Record<Compare['target'], [Compare, Compare, Compare]> = {
      VERSION: [2, 1, 3].map((version) => ({ key: 'k', target: 'VERSION', version })) as never,
      CREATE: [2, 1, 3].map((createRevision) => ({ key: 'k', target: 'CREATE', createRevision })) as never,
      MOD: [3, 2, 4].map((modRevision) => ({ key: 'k', target: 'MOD', modRevision })) as never,
      VALUE: ['m', 'l', 'n'].map((value) => ({ key: 'k', target: 'VALUE', value })) as never,
      LEASE: [l, l - 1n, l + 1n].map((lease) => ({ key: 'k', target: 'LEASE', lease })) as never,
    };
    const got: string[] = [];
    for (const [target, [same, below, above]] of Object.entries(field)) {
      for (const result of ['EQUAL', 'NOT_EQUAL', 'GREATER', 'LESS'] as const) {
        const bits = [same, below, above].map((c) =>
          h.ok('Txn', txn({ compare: [{ ...c, result }] })).succeeded ? 1 : 0,
        );
        got.push(`${target} ${result} ${bits.join('')}`);
      }
    }
    // Columns: operand equal to, below, above the key's field.
    const rows = ['EQUAL 100', 'NOT_EQUAL 011', 'GREATER 010', 'LESS 001'];
    expect(got).toEqual(['VERSION', 'CREATE', 'MOD', 'VALUE', 'LEASE'].flatMap((t) => rows.map((r) => `${t} ${r}`)));
    const missing = (c: Compare) => h.ok('Txn', txn({ compare: [c] })).succeeded;
    expect(missing({ key: 'nope', target: 'VERSION', result: 'EQUAL', version: 0 })).toBe(true);
    expect(missing({ key: 'nope', target: 'LEASE', result: 'EQUAL' })).toBe(true);
    expect(missing({ key: 'nope', target: 'VALUE', result: 'EQUAL', value: '' })).toBe(false);
    expect(missing({ key: 'nope', target: 'VALUE', result: 'NOT_EQUAL', value: 'x' })).toBe(false);
  });
});

describe('Txn paths, revisions and refusals', () => {
  it('follows the compare path through nested Txns (TestV3TxnNestedPath)', () => {
    const h = kvHarness();
    const yes: Compare = { key: 'k', target: 'VERSION', result: 'EQUAL', version: 0 };
    const no: Compare = { key: 'k', target: 'VERSION', result: 'EQUAL', version: 1 };
    const path = [true, false, false, true, true, false, true, false, true, true];
    let inner: TxnRequest = txn({});
    for (const p of [...path].reverse())
      inner = p ? txn({ compare: [yes], success: [inner] }) : txn({ compare: [no], failure: [inner] });
    let r: { succeeded: boolean; responses: readonly ResponseOp[] } = h.ok('Txn', inner);
    const seen: boolean[] = [];
    for (let i = 0; i < path.length; i++) {
      seen.push(r.succeeded);
      const next = r.responses[0];
      if (next?.op !== 'Txn') break;
      expect(next.revision).toBe(0); // a nested header is never filled in
      r = next;
    }
    expect(seen).toEqual(path);
  });

  it('moves the revision only when something changed (TestV3TxnRevision)', () => {
    const h = kvHarness();
    const p = h.put('abc', 'def').header.revision;
    expect(h.ok('Txn', txn({ success: [{ op: 'Range', key: 'abc' }] })).header.revision).toBe(p);
    expect(h.ok('Txn', txn({ success: [delKey('def')] })).header.revision).toBe(p);
    expect(h.ok('Txn', txn({ success: [put('abc', '123')] })).header.revision).toBe(p + 1);
  });

  it('answers each op with its own revision, reads seeing earlier writes', () => {
    const h = kvHarness();
    h.put('a', '1');
    h.put('q');
    const r = h.ok(
      'Txn',
      txn({ success: [{ op: 'Range', key: 'a' }, put('a', '2'), { op: 'Range', key: 'a' }, delKey('z'), delKey('q')] }),
    );
    expect(
      r.responses.map((x) => `${x.op}@${x.revision}${x.op === 'Range' ? `=${x.kvs.map((k) => k.value)}` : ''}`),
    ).toEqual(['Range@3=1', 'Put@4', 'Range@4=2', 'DeleteRange@4', 'DeleteRange@4']);
    expect(r.header.revision).toBe(4);
  });

  it('refuses duplicate keys along one path (TestV3TxnDuplicateKeys)', () => {
    const h = kvHarness();
    const inRange = delKey('a', 'b');
    const outOfRange = delKey('abb', 'abc');
    const txnDel = txn({ success: [inRange] });
    const txnDelTwoSide = txn({ success: [inRange], failure: [inRange] });
    const txnPut = txn({ success: [put('abc', 'def')] });
    const txnPutTwoSide = txn({ success: [put('abc', 'def')], failure: [put('abc', 'def')] });
    const p = put('abc', 'def');
    const cases: [RequestOp[], boolean][] = [
      [[p, p], true],
      [[p, delKey('abc')], true],
      [[p, inRange], true],
      [[p, txnDel], true],
      [[inRange, txnPut], true],
      [[txnPutTwoSide, txnPutTwoSide], true],
      [[outOfRange, txnPutTwoSide], false],
      [[txnDel, txnDelTwoSide], false],
      [[delKey('abc'), inRange, delKey('abc'), inRange], false],
      [[p, outOfRange], false],
    ];
    for (const [success, dup] of cases) {
      const r = h.call(txn({ success }));
      expect('code' in r ? `${r.code}: ${r.message}` : 'ok', JSON.stringify(success, bigints)).toBe(
        dup ? 'InvalidArgument: etcdserver: duplicate key given in txn request' : 'ok',
      );
    }
  });

  it('refuses more than 128 ops in one list (TestV3TxnTooManyOps)', () => {
    const h = kvHarness();
    const many = (n: number) => Array.from({ length: n }, (_, i) => put(`k${i}`));
    expect(h.call(txn({ success: many(128) }))).toMatchObject({ op: 'Txn' });
    expect(h.call(txn({ success: many(129) }))).toMatchObject({
      code: 'InvalidArgument',
      message: 'etcdserver: too many operations in txn request',
    });
    const cmps = Array.from({ length: 129 }, (): Compare => ({ key: 'k', target: 'VERSION', result: 'EQUAL' }));
    expect(h.call(txn({ compare: cmps }))).toMatchObject({ code: 'InvalidArgument' });
  });

  it('checks every chosen Put up front: an unknown lease or ignore_value on no key fails the whole Txn', () => {
    const h = kvHarness();
    const before = h.put('x').header.revision;
    const bad: RequestOp[] = [put('a'), { op: 'Put', key: 'b', value: '', lease: 0x77n }];
    expect(h.call(txn({ success: bad }))).toMatchObject({ code: 'NotFound', name: 'ErrLeaseNotFound' });
    expect(
      h.call(txn({ success: [put('a'), { op: 'Put', key: 'nope', value: '', lease: 0n, ignoreValue: true }] })),
    ).toMatchObject({ code: 'InvalidArgument', message: 'etcdserver: key not found' });
    // Only the branch taken is checked.
    expect(h.call(txn({ failure: bad }))).toMatchObject({ op: 'Txn', succeeded: true });
    expect(h.ok('Range', { op: 'Range', key: 'a' }).kvs).toEqual([]);
    expect(h.ok('Range', { op: 'Range', key: 'x' }).header.revision).toBe(before);
  });
});
