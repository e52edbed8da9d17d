import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyTree } from '../../../src/cluster/mvcc/key-tree.js';
import { fcParams } from './fc-params.js';

describe('mvcc KeyTree', () => {
  it('ascends from any key in sorted order, matching a sorted set', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 3 })), { maxLength: 200 }),
        fc.string({ maxLength: 3 }),
        (ops, from) => {
          const tree = new KeyTree();
          const ref = new Set<string>();
          for (const [add, key] of ops) {
            if (add && !ref.has(key)) {
              tree.insert(key);
              ref.add(key);
            } else if (!add && ref.has(key)) {
              tree.delete(key);
              ref.delete(key);
            }
          }
          const expected = [...ref].sort().filter((k) => k >= from);
          expect([...tree.ascendFrom(from)]).toEqual(expected);
        },
      ),
      fcParams(500),
    );
  });

  it('rejects deleting a key it does not hold', () => {
    const tree = new KeyTree();
    tree.insert('/a');
    expect(() => tree.delete('/b')).toThrow(/missing/);
  });

  it('handles 200k sequential keys (an unbalanced tree would overflow the stack)', () => {
    const tree = new KeyTree();
    for (let i = 0; i < 200_000; i++) tree.insert(`/k/${String(i).padStart(8, '0')}`);
    for (let i = 0; i < 200_000; i += 2) tree.delete(`/k/${String(i).padStart(8, '0')}`);
    const it = tree.ascendFrom('/k/00100000');
    expect(it.next().value).toBe('/k/00100001');
  });
});
