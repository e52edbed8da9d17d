import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newStore, restore, type MvccStore, type WatchEvent } from '../../../src/cluster/mvcc/index.js';
import { fcParams } from './fc-params.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

type Op = { kind: 'put'; key: string; value: string; lease: bigint } | { kind: 'delete'; key: string };
type Step = { kind: 'txn'; single: boolean; ops: Op[] } | { kind: 'revoke'; lease: bigint };

const LEASES = [1n, 2n, 3n];
const key = fc.constantFrom('/a', '/b', '/c', '/a/x', '/a/y');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    key,
    value: fc.string({ maxLength: 2 }),
    // 0 twice as likely; 99 is never granted.
    lease: fc.constantFrom(0n, 0n, 1n, 2n, 3n, 99n),
  }),
  fc.record({ kind: fc.constant('delete' as const), key }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  op.map((o) => ({ kind: 'txn' as const, single: true, ops: [o] })),
  fc.array(op, { maxLength: 5 }).map((ops) => ({ kind: 'txn' as const, single: false, ops })),
  fc.constantFrom(...LEASES).map((lease) => ({ kind: 'revoke' as const, lease })),
);

interface ModelKv {
  value: string;
  lease: bigint;
  createRevision: number;
  modRevision: number;
  version: number;
}

/** The obvious model: a Map of latest states and a counter bumped by every transaction that changed something. */
class Model {
  readonly kvs = new Map<string, ModelKv>();
  rev = 1;
  changedTxns = 0;
  readonly events: WatchEvent[][] = [];

  txn(ops: readonly Op[], leaseExists: (id: bigint) => boolean): void {
    const next = this.rev + 1;
    const evs: WatchEvent[] = [];
    for (const o of ops) {
      if (o.kind === 'put') {
        if (o.lease !== 0n && !leaseExists(o.lease)) continue;
        const prev = this.kvs.get(o.key);
        this.kvs.set(o.key, {
          value: o.value,
          lease: o.lease,
          createRevision: prev?.createRevision ?? next,
          modRevision: next,
          version: (prev?.version ?? 0) + 1,
        });
        evs.push({ type: 'PUT', key: o.key, revision: next, subRevision: evs.length, value: o.value, lease: o.lease });
      } else if (this.kvs.delete(o.key)) {
        evs.push({ type: 'DELETE', key: o.key, revision: next, subRevision: evs.length, lease: 0n });
      }
    }
    if (evs.length > 0) {
      this.rev = next;
      this.changedTxns++;
      this.events.push(evs);
    }
  }

  leased(id: bigint): string[] {
    return [...this.kvs].filter(([, kv]) => kv.lease === id).map(([k]) => k);
  }

  itemMap(): Map<string, bigint> {
    return new Map([...this.kvs].filter(([, kv]) => kv.lease !== 0n).map(([k, kv]) => [k, kv.lease]));
  }
}

function expectSame(s: MvccStore, idx: FakeLeaseIndex, m: Model): void {
  const expected = [...m.kvs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, kv]) => ({ key: k, ...kv }));
  expect(
    s.rangeAll().map(({ key: k, value, lease, createRevision, modRevision, version }) => ({
      key: k,
      value,
      lease,
      createRevision,
      modRevision,
      version,
    })),
  ).toEqual(expected);
  expect(s.currentRevision).toBe(m.rev);
  expect(m.rev).toBe(1 + m.changedTxns);
  expect(new Map([...idx.itemMap].sort())).toEqual(new Map([...m.itemMap()].sort()));
  for (const [id, items] of idx.itemSets) expect([...items].sort()).toEqual(m.leased(id).sort());
}

describe('mvcc store against a reference model', () => {
  it('agrees on latest state, revisions, lease index and watch events; restore agrees too', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const idx = new FakeLeaseIndex(...LEASES);
        const s = newStore(idx, { member: 'n1' });
        const m = new Model();
        const seen: WatchEvent[][] = [];
        s.watch('', { prefix: true }, (evs) => seen.push(evs));
        for (const st of steps) {
          if (st.kind === 'revoke') {
            // The lessor's revoke: the store's view of the lease, sorted, deleted in one transaction.
            const keys = m.leased(st.lease).sort();
            m.txn(
              keys.map((k) => ({ kind: 'delete', key: k })),
              () => true,
            );
            idx.revoke(st.lease, s.rangeDeleter);
            idx.grant(st.lease);
          } else if (st.single) {
            const o = st.ops[0]!;
            if (o.kind === 'put') s.put(o.key, o.value, o.lease);
            else s.deleteRange(o.key);
            m.txn(st.ops, (id) => idx.lookup(id));
          } else {
            const txn = s.txnWrite();
            for (const o of st.ops) {
              if (o.kind === 'put') txn.put(o.key, o.value, o.lease);
              else txn.deleteRange(o.key);
            }
            const after = txn.end();
            m.txn(st.ops, (id) => idx.lookup(id));
            expect(after).toBe(m.rev);
          }
          expectSame(s, idx, m);
        }
        expect(seen).toEqual(m.events);
        const idx2 = new FakeLeaseIndex(...LEASES);
        expectSame(restore(s.backend, idx2, { member: 'n1' }), idx2, m);
      }),
      fcParams(500),
    );
  });
});
