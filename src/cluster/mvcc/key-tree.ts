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
 *
 * Key order is JavaScript's `<`: UTF-16 code units, the order the lessor's `sort()` uses too, so a revoke
 * deletes in the order a range lists. etcd compares UTF-8 bytes; the two agree on every pair of strings
 * except where the first difference is an astral character (a surrogate, D800–DFFF) against one in
 * E000–FFFF, which no simulated key has. Each level does one comparison: they are most of the cost.
 */
export class KeyTree {
  /** The root hangs off `head.right`, so every link the walks rewrite has a parent node. */
  private readonly head: Node = { key: '', priority: Infinity, left: undefined, right: undefined };
  private inserted = 0;

  /** Adds a key the tree does not hold: the store checks its map first, so the tree does not. */
  insert(key: string): void {
    const n: Node = { key, priority: mix32(this.inserted++), left: undefined, right: undefined };
    // Walk down to where n's priority belongs, then split the subtree there around key.
    let parent = this.head;
    let t = parent.right;
    let onLeft = false;
    while (t !== undefined && t.priority >= n.priority) {
      parent = t;
      onLeft = key < t.key;
      t = onLeft ? t.left : t.right;
    }
    if (onLeft) parent.left = n;
    else parent.right = n;
    // Nodes below key chain down n.left's right spine, nodes above down n.right's left spine.
    let lo = n;
    let loLeft = true;
    let hi = n;
    let hiLeft = false;
    while (t !== undefined) {
      if (t.key < key) {
        if (loLeft) lo.left = t;
        else lo.right = t;
        lo = t;
        loLeft = false;
        t = t.right;
      } else {
        if (hiLeft) hi.left = t;
        else hi.right = t;
        hi = t;
        hiLeft = true;
        t = t.left;
      }
    }
    if (loLeft) lo.left = undefined;
    else lo.right = undefined;
    if (hiLeft) hi.left = undefined;
    else hi.right = undefined;
  }

  /** Removes a key the tree holds (a missing key is a bug and throws). */
  delete(key: string): void {
    let parent = this.head;
    let t = parent.right;
    let onLeft = false;
    while (t !== undefined && t.key !== key) {
      parent = t;
      onLeft = key < t.key;
      t = onLeft ? t.left : t.right;
    }
    if (t === undefined) throw new Error(`mvcc key tree: missing key ${key}`);
    const joined = merge(t.left, t.right);
    if (onLeft) parent.left = joined;
    else parent.right = joined;
  }

  /** Keys >= `from`, ascending; stop iterating to stop the walk. */
  *ascendFrom(from: string): Generator<string, void, undefined> {
    const stack: Node[] = [];
    let t = this.head.right;
    while (t !== undefined) {
      if (t.key < from) t = t.right;
      else {
        stack.push(t);
        t = t.left;
      }
    }
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      yield n.key;
      for (t = n.right; t !== undefined; t = t.left) stack.push(t);
    }
  }
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
