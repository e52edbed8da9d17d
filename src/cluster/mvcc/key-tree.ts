import { compareKeys } from './key-order.js';

interface Node {
  readonly key: string;
  readonly priority: number;
  left: Node | undefined;
  right: Node | undefined;
}

/**
 * The live keys in key order (etcd's btree-backed treeIndex, reduced to the key set): a treap, so insert,
 * delete and seek are O(log n) expected. Priorities come from a counter run through a hash, not from a
 * random source, so the shape is a pure function of the operations (and invisible anyway).
 */
export class KeyTree {
  private root: Node | undefined;
  private inserted = 0;

  /** Adds a key the tree does not hold (the store knows; a duplicate is a bug and throws). */
  insert(key: string): void {
    const node: Node = { key, priority: mix32(this.inserted++), left: undefined, right: undefined };
    this.root = insertNode(this.root, node);
  }

  /** Removes a key the tree holds (a missing key is a bug and throws). */
  delete(key: string): void {
    this.root = deleteNode(this.root, key);
  }

  /** Keys >= `from`, ascending; stop iterating to stop the walk. */
  *ascendFrom(from: string): Generator<string, void, undefined> {
    const stack: Node[] = [];
    let t = this.root;
    while (t !== undefined) {
      if (compareKeys(t.key, from) >= 0) {
        stack.push(t);
        t = t.left;
      } else t = t.right;
    }
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      yield n.key;
      for (t = n.right; t !== undefined; t = t.left) stack.push(t);
    }
  }
}

function insertNode(t: Node | undefined, n: Node): Node {
  if (t === undefined) return n;
  if (n.priority > t.priority) {
    [n.left, n.right] = split(t, n.key);
    return n;
  }
  const c = compareKeys(n.key, t.key);
  if (c === 0) throw new Error(`mvcc key tree: duplicate key ${n.key}`);
  if (c < 0) t.left = insertNode(t.left, n);
  else t.right = insertNode(t.right, n);
  return t;
}

/** Splits `t` into keys below `key` and keys above it. */
function split(t: Node | undefined, key: string): [Node | undefined, Node | undefined] {
  if (t === undefined) return [undefined, undefined];
  const c = compareKeys(t.key, key);
  if (c === 0) throw new Error(`mvcc key tree: duplicate key ${key}`);
  if (c < 0) {
    const [l, r] = split(t.right, key);
    t.right = l;
    return [t, r];
  }
  const [l, r] = split(t.left, key);
  t.left = r;
  return [l, t];
}

function deleteNode(t: Node | undefined, key: string): Node | undefined {
  if (t === undefined) throw new Error(`mvcc key tree: missing key ${key}`);
  const c = compareKeys(key, t.key);
  if (c === 0) return merge(t.left, t.right);
  if (c < 0) t.left = deleteNode(t.left, key);
  else t.right = deleteNode(t.right, key);
  return t;
}

/** Joins two treaps where every key of `a` is below every key of `b`. */
function merge(a: Node | undefined, b: Node | undefined): Node | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a.priority > b.priority) {
    a.right = merge(a.right, b);
    return a;
  }
  b.left = merge(a, b.left);
  return b;
}

/** murmur3's 32-bit finaliser: spreads consecutive counters over the whole range. */
function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
