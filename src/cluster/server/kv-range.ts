import { gteRangeEnd, prefixEnd, type KeyValue, type RangeKeysOptions, type RangeResult } from '../mvcc/index.js';
import type { RangeBody, RangeRequest, SortOrder, SortTarget } from './api.js';

/** A read view: the store, or an open write transaction that sees its own writes. */
export type RangeReader = (key: string, end: string | undefined, opts: RangeKeysOptions) => RangeResult;

/** A RangeResponse without its header, and the revision that header carries (the read's revision). */
export type RangeAnswer = RangeBody & { readonly revision: number };

/**
 * applierV3backend.Range: reads the range, prunes by the min/max revision filters, sorts, applies the
 * limit. `count` is the number of keys in range before pruning and limit, as etcd counts it. Sorting is
 * stable, so ties keep key order, as Go's insertion sort leaves them for the fewer than 12 keys it is
 * used for (larger sorts in etcd may order ties differently). Throws ErrCompacted or ErrFutureRev.
 */
export function applyRange(read: RangeReader, r: RangeRequest): RangeAnswer {
  const q = normalise(r);
  const filtered =
    q.sortOrder !== 'NONE' ||
    q.minMod !== undefined ||
    q.maxMod !== undefined ||
    q.minCreate !== undefined ||
    q.maxCreate !== undefined;
  const limit = q.limit;
  // Fetch one more than the limit to know `more`, unless pruning and sorting need every key.
  const rr = read(r.key, q.end, {
    rev: r.revision ?? 0,
    limit: filtered || limit <= 0 ? 0 : limit + 1,
    count: r.countOnly === true,
  });
  let kvs = [...rr.kvs];
  if (q.maxMod !== undefined) kvs = kvs.filter((kv) => kv.modRevision <= q.maxMod!);
  if (q.minMod !== undefined) kvs = kvs.filter((kv) => kv.modRevision >= q.minMod!);
  if (q.maxCreate !== undefined) kvs = kvs.filter((kv) => kv.createRevision <= q.maxCreate!);
  if (q.minCreate !== undefined) kvs = kvs.filter((kv) => kv.createRevision >= q.minCreate!);
  if (q.sortOrder !== 'NONE') {
    const cmp = comparator(q.sortTarget);
    kvs.sort(q.sortOrder === 'ASCEND' ? cmp : (a, b) => cmp(b, a));
  }
  let more = false;
  if (limit > 0 && kvs.length > limit) {
    kvs = kvs.slice(0, limit);
    more = true;
  }
  if (r.keysOnly === true) kvs = kvs.map((kv) => ({ ...kv, value: '' }));
  return { kvs, more, count: rr.count, revision: rr.rev };
}

interface Query {
  readonly end: string | undefined;
  readonly limit: number;
  readonly sortOrder: SortOrder;
  readonly sortTarget: SortTarget;
  readonly minMod: number | undefined;
  readonly maxMod: number | undefined;
  readonly minCreate: number | undefined;
  readonly maxCreate: number | undefined;
}

const set = (n: number | undefined): number | undefined => (n === undefined || n === 0 ? undefined : n);

/** The request in etcd's terms: the project's shorthands become the options clientv3 would send. */
function normalise(r: RangeRequest): Query {
  const end = gteRangeEnd(r.prefix === true ? prefixEnd(r.key) : r.rangeEnd);
  let sortTarget = r.sortTarget ?? 'KEY';
  let sortOrder = r.sortOrder ?? 'NONE';
  let maxCreate = set(r.maxCreateRevision);
  let limit = r.limit ?? 0;
  // clientv3's withTop: WithPrefix, WithSort(CREATE, order), WithLimit(1).
  if (r.prefix === true && r.firstCreated === true) {
    sortTarget = 'CREATE';
    sortOrder = 'ASCEND';
    limit = 1;
  } else if (r.prefix === true && r.lastCreatedAtMost !== undefined) {
    sortTarget = 'CREATE';
    sortOrder = 'DESCEND';
    limit = 1;
    // Kept even at 0 (nothing qualifies), where etcd's field would mean "no filter".
    maxCreate = r.lastCreatedAtMost;
  }
  // etcd sorts ascending by default when the target is not the key (keys already come in key order).
  if (sortTarget !== 'KEY' && sortOrder === 'NONE') sortOrder = 'ASCEND';
  return {
    end,
    limit,
    sortOrder,
    sortTarget,
    minMod: set(r.minModRevision),
    maxMod: set(r.maxModRevision),
    minCreate: set(r.minCreateRevision),
    maxCreate,
  };
}

function comparator(t: SortTarget): (a: KeyValue, b: KeyValue) => number {
  switch (t) {
    case 'KEY':
      return (a, b) => compareStrings(a.key, b.key);
    case 'VERSION':
      return (a, b) => a.version - b.version;
    case 'CREATE':
      return (a, b) => a.createRevision - b.createRevision;
    case 'MOD':
      return (a, b) => a.modRevision - b.modRevision;
    case 'VALUE':
      return (a, b) => compareStrings(a.value, b.value);
  }
}

export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
