import type { KvBackend } from './backend.js';
import { ErrCompacted, ErrFutureRev } from './errors.js';
import type { KvRecord } from './kv.js';

/**
 * store.HashByRev (mvcc/kvstore.go), the answer to Maintenance.HashKV: crc32 (Castagnoli) over the key
 * bucket's name, then each row's key and value as bbolt stores them, in key order, up to `rev` (0: the
 * current revision). Rows at or below the compaction are hashed only if they are in the index's Keep(rev),
 * the version of each key live at `rev`, unless that set is empty, as etcd does. Rows are encoded as etcd
 * writes them (revision bytes, a marshalled mvccpb.KeyValue), so the hash is etcd's for the same history.
 * Throws ErrCompacted for a revision at or below the compaction, ErrFutureRev for one beyond the store.
 */
export function hashByRev(
  backend: KvBackend,
  currentRev: number,
  compactRev: number,
  rev: number,
): { hash: number; currentRev: number; compactRev: number } {
  if (rev > 0 && rev <= compactRev) throw ErrCompacted;
  if (rev > 0 && rev > currentRev) throw ErrFutureRev;
  const at = rev === 0 ? currentRev : rev;
  const rows = backend.records.filter((r) => r.modRevision <= at);
  const latest = new Map<string, KvRecord>();
  for (const r of rows) latest.set(r.key, r);
  const keep = new Set([...latest.values()].filter((r) => !r.tombstone));
  const h = new Crc32c();
  h.write(Buffer.from('key'));
  for (const r of rows) {
    if (r.modRevision <= compactRev && keep.size > 0 && !keep.has(r)) continue;
    h.write(revisionBytes(r));
    h.write(keyValueBytes(r));
  }
  return { hash: h.sum(), currentRev, compactRev };
}

/** revToBytes, with the tombstone mark: main and sub revision big-endian around '_', then 't' for a delete. */
function revisionBytes(r: KvRecord): Buffer {
  const b = Buffer.alloc(r.tombstone ? 18 : 17);
  b.writeBigUInt64BE(BigInt(r.modRevision), 0);
  b[8] = 0x5f;
  b.writeBigUInt64BE(BigInt(r.subRevision), 9);
  if (r.tombstone) b[17] = 0x74;
  return b;
}

/**
 * mvccpb.KeyValue as gogoproto marshals it (fields in number order, zero values left out); a tombstone is
 * its key alone.
 */
function keyValueBytes(r: KvRecord): Buffer {
  const out: number[] = [];
  const bytes = (field: number, s: string): void => {
    const b = Buffer.from(s, 'latin1');
    if (b.length === 0) return;
    out.push((field << 3) | 2, ...varint(BigInt(b.length)), ...b);
  };
  const int = (field: number, v: bigint): void => {
    if (v !== 0n) out.push(field << 3, ...varint(BigInt.asUintN(64, v)));
  };
  bytes(1, r.key);
  if (!r.tombstone) {
    int(2, BigInt(r.createRevision));
    int(3, BigInt(r.modRevision));
    int(4, BigInt(r.version));
    bytes(5, r.value);
    int(6, r.lease);
  }
  return Buffer.from(out);
}

function varint(v: bigint): number[] {
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

const CASTAGNOLI = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

class Crc32c {
  private crc = 0xffffffff;
  write(b: Uint8Array): void {
    let c = this.crc;
    for (const x of b) c = CASTAGNOLI[(c ^ x) & 0xff]! ^ (c >>> 8);
    this.crc = c;
  }
  sum(): number {
    return (this.crc ^ 0xffffffff) >>> 0;
  }
}
