/**
 * clientv3 dials a single endpoint as `passthrough:///http://host:port` (Maintenance.Status, HashKV,
 * MoveLeader …), so its requests carry `:authority: http://host:port`. etcd's Go server takes that; Node's
 * HTTP/2 server (nghttp2) resets the stream with PROTOCOL_ERROR. So the relay reads the client's HTTP/2 frames
 * and re-encodes each header block for the server with the authority's scheme and path removed. Blocks are
 * decoded with the client's HPACK state and re-encoded without the dynamic table (every field a literal not
 * indexed), so the server's table stays empty and in step; every other frame passes through unchanged.
 */
import { createRequire } from 'node:module';

interface HeaderField {
  readonly name: string;
  readonly value: string;
}
interface Decompressor {
  write(b: Buffer): void;
  execute(): void;
  read(): HeaderField | null;
}
const hpack = createRequire(import.meta.url)('hpack.js') as {
  decompressor: { create(o: { table: { size: number } }): Decompressor };
};

const PREFACE_LENGTH = 24;
const HEADERS = 0x1;
const CONTINUATION = 0x9;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;
/** SETTINGS_MAX_FRAME_SIZE's default, which Node's server keeps. */
const MAX_FRAME = 16384;
/** SETTINGS_HEADER_TABLE_SIZE's default, which Node's server advertises: the client's encoder keeps to it. */
const TABLE_SIZE = 4096;

function prefixInt(value: number, prefixBits: number, first: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [first | value];
  const out = [first | max];
  let v = value - max;
  while (v >= 128) {
    out.push((v % 128) + 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

function literal(s: string): Buffer {
  const b = Buffer.from(s, 'latin1');
  return Buffer.concat([Buffer.from(prefixInt(b.length, 7, 0)), b]);
}

/** A field as "literal header field without indexing, new name" (RFC 7541 §6.2.2). */
const encodeField = (f: HeaderField): Buffer => Buffer.concat([Buffer.from([0]), literal(f.name), literal(f.value)]);

/** `http://host:port/x` → `host:port`; a valid authority is kept as is. */
export const plainAuthority = (v: string): string =>
  v.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, '').replace(/\/.*$/, '');

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(stream, 5);
  return Buffer.concat([h, payload]);
}

/** The client-to-server direction of one connection. */
export class AuthorityRewriter {
  private pending = Buffer.alloc(0);
  private prefaceLeft = PREFACE_LENGTH;
  private readonly decoder = hpack.decompressor.create({ table: { size: TABLE_SIZE } });
  /** The header block being collected (HEADERS then CONTINUATION frames). */
  private block: { flags: number; stream: number; priority: Buffer; parts: Buffer[] } | undefined;

  /** Takes bytes from the client; returns the bytes to send to the server. */
  push(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let data = Buffer.concat([this.pending, chunk]);
    if (this.prefaceLeft > 0) {
      const n = Math.min(this.prefaceLeft, data.length);
      out.push(data.subarray(0, n));
      this.prefaceLeft -= n;
      data = data.subarray(n);
    }
    while (data.length >= 9) {
      const length = data.readUIntBE(0, 3);
      if (data.length < 9 + length) break;
      const type = data[3]!;
      const flags = data[4]!;
      const stream = data.readUInt32BE(5) & 0x7fffffff;
      const payload = data.subarray(9, 9 + length);
      const whole = data.subarray(0, 9 + length);
      data = data.subarray(9 + length);
      if (type === HEADERS) {
        let p = payload;
        let pad = 0;
        if (flags & PADDED) {
          pad = p[0]!;
          p = p.subarray(1);
        }
        const priority = flags & PRIORITY ? Buffer.from(p.subarray(0, 5)) : Buffer.alloc(0);
        p = p.subarray(priority.length, p.length - pad);
        this.block = { flags, stream, priority, parts: [Buffer.from(p)] };
      } else if (type === CONTINUATION && this.block !== undefined) {
        this.block.parts.push(Buffer.from(payload));
      } else {
        out.push(whole);
        continue;
      }
      if (flags & END_HEADERS) out.push(this.reencode());
    }
    this.pending = Buffer.from(data);
    return Buffer.concat(out);
  }

  private reencode(): Buffer {
    const b = this.block!;
    this.block = undefined;
    this.decoder.write(Buffer.concat(b.parts));
    this.decoder.execute();
    const fields: Buffer[] = [];
    for (let f = this.decoder.read(); f !== null; f = this.decoder.read())
      fields.push(encodeField(f.name === ':authority' ? { name: f.name, value: plainAuthority(f.value) } : f));
    const block = Buffer.concat(fields);
    const frames: Buffer[] = [];
    const firstRoom = MAX_FRAME - b.priority.length;
    const first = block.subarray(0, firstRoom);
    let rest = block.subarray(first.length);
    const flags = (b.flags & ~(PADDED | END_HEADERS)) | (rest.length === 0 ? END_HEADERS : 0);
    frames.push(frame(HEADERS, flags, b.stream, Buffer.concat([b.priority, first])));
    while (rest.length > 0) {
      const part = rest.subarray(0, MAX_FRAME);
      rest = rest.subarray(part.length);
      frames.push(frame(CONTINUATION, rest.length === 0 ? END_HEADERS : 0, b.stream, part));
    }
    return Buffer.concat(frames);
  }
}
