/**
 * A key interval as the mvcc package takes it: `end` undefined is the single key `key`, '' is every key
 * from `key` on (etcd's empty, non-nil end), otherwise the half-open [key, end). The RPC layer's '\0'
 * range end maps to '' through `gteRangeEnd`.
 */
export interface KeyRange {
  readonly key: string;
  readonly end: string | undefined;
}

/** etcd's mkGteRange plus gRPC's nil-for-empty: the wire's range_end as the mvcc package's `end`. */
export function gteRangeEnd(rangeEnd: string | undefined): string | undefined {
  if (rangeEnd === undefined || rangeEnd === '') return undefined;
  return rangeEnd === '\0' ? '' : rangeEnd;
}

/** Whether `k` falls in the range. */
export function inKeyRange(r: KeyRange, k: string): boolean {
  if (r.end === undefined) return k === r.key;
  return k >= r.key && (r.end === '' || k < r.end);
}

/** clientv3's GetPrefixRangeEnd: the smallest key above every key with this prefix ('\0' for none). */
export function prefixEnd(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}
