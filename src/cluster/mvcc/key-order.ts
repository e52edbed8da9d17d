/**
 * The order of keys in ranges and watch replays: UTF-16 code units, JavaScript's native string order
 * (the lessor's `Array.prototype.sort` uses the same, so a revoke deletes in the order a range lists).
 * etcd compares UTF-8 bytes; the two agree on every pair of strings except where the first difference is
 * an astral character (a surrogate, D800–DFFF) against one in E000–FFFF. No simulated key mixes those.
 */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
