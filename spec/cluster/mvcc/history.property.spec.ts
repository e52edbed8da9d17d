import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ErrCompacted,
  KvBackend,
  newStore,
  restore,
  type KeyValue,
  type MvccStore,
} from '../../../src/cluster/mvcc/index.js';
import { fcParams } from './fc-params.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

// History against the obvious model: a snapshot of the whole keyspace after every revision. Every read
// at a kept revision must equal that snapshot, reads below the last compaction must fail, and the
// backend must hold no row that no such read can see.

type Op = { kind: 'put'; key: string; value: string } | { kind: 'delete'; key: string; end?: string };
type Step = { kind: 'txn'; ops: Op[] } | { kind: 'compact'; back: number };

const key = fc.constantFrom('a', 'b', 'c', 'b/x', 'd');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key, value: fc.string({ maxLength: 2 }) }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('delete' as const), key, end: fc.constantFrom('c', '') }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.array(op, { minLength: 1, maxLength: 3 }).map((ops) => ({ kind: 'txn' as const, ops })) },
  { weight: 1, arbitrary: fc.nat(4).map((back) => ({ kind: 'compact' as const, back })) },
);

const plain = (kvs: readonly KeyValue[]) =>
  kvs.map((k) => `${k.key}=${k.value}@${k.createRevision}/${k.modRevision}/v${k.version}`);

function apply(s: MvccStore, ops: readonly Op[]): void {
  const t = s.txnWrite();
  for (const o of ops) {
    if (o.kind === 'put') t.put(o.key, o.value);
    else t.deleteRange(o.key, o.end);
  }
  t.end();
}

describe('mvcc history (property)', () => {
  it('reads every kept revision as it was, and compaction keeps exactly what such reads need', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const backend = new KvBackend();
        let s = restore(backend, new FakeLeaseIndex(), { member: 'n1' });
        // snapshots[rev] is the whole keyspace as of revision rev.
        const snapshots: string[][] = [[], []];
        let compacted = -1;
        for (const st of steps) {
          if (st.kind === 'txn') {
            apply(s, st.ops);
            snapshots[s.currentRevision] = plain(s.rangeKeys('\0', '').kvs);
          } else {
            const rev = s.currentRevision - st.back;
            if (rev <= compacted || rev < 1) continue;
            s.compact(rev);
            compacted = rev;
            // A crash after compaction keeps it: the store comes back from the compacted backend.
            s = restore(backend, new FakeLeaseIndex(), { member: 'n1' });
          }
        }
        for (let rev = 1; rev <= s.currentRevision; rev++) {
          if (rev < compacted) expect(() => s.rangeKeys('\0', '', { rev })).toThrow(ErrCompacted);
          else expect(plain(s.rangeKeys('\0', '', { rev }).kvs), `rev ${rev}`).toEqual(snapshots[rev]);
        }
        // Every row left is one some read at or after the compaction returns, or newer than it.
        const visible = new Set<string>();
        for (let rev = Math.max(compacted, 1); rev <= s.currentRevision; rev++)
          for (const kv of s.rangeKeys('\0', '', { rev }).kvs) visible.add(`${kv.key}@${kv.modRevision}`);
        for (const r of backend.records) {
          if (r.modRevision > compacted) continue;
          expect(visible.has(`${r.key}@${r.modRevision}`) && !r.tombstone, `row ${r.key}@${r.modRevision}`).toBe(true);
        }
      }),
      fcParams(300),
    );
  });

  it('keeps a fresh store and one rebuilt from its backend identical at every revision', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    apply(s, [{ kind: 'put', key: 'a', value: '1' }]);
    apply(s, [{ kind: 'delete', key: 'a' }]);
    const again = restore(s.backend, new FakeLeaseIndex(), { member: 'n1' });
    for (const rev of [1, 2, 3])
      expect(again.rangeKeys('a', undefined, { rev }).kvs).toEqual(s.rangeKeys('a', undefined, { rev }).kvs);
  });
});
