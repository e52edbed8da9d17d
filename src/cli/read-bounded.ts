/**
 * Reading a file a user named, with its size limit checked while reading (never a whole /dev/zero in
 * memory first) and only regular files taken: a FIFO would block forever, a device never ends.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type BoundedRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

const CHUNK = 64 * 1024;

function kindOf(mode: number): string {
  const t = mode & constants.S_IFMT;
  if (t === constants.S_IFIFO) return 'a FIFO';
  if (t === constants.S_IFCHR) return 'a character device';
  if (t === constants.S_IFBLK) return 'a block device';
  if (t === constants.S_IFSOCK) return 'a socket';
  if (t === constants.S_IFDIR) return 'a directory';
  return 'not a regular file';
}

/** The file's text if it is a regular file of at most `limit` bytes; else why not, in words. */
export function readBounded(file: string, limit: number, what: string): BoundedRead {
  let fd: number;
  try {
    // Non-blocking, so opening a FIFO with no writer returns at once and is refused below.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return { ok: false, message: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, message: `cannot read the file: it is ${kindOf(st.mode)}, not a file` };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > limit) return { ok: false, message: `file is larger than ${limit} bytes, the limit for ${what}` };
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
  } catch (e) {
    return { ok: false, message: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  } finally {
    closeSync(fd);
  }
}

/** The first `bytes` bytes of a regular file, or undefined: enough to tell what kind of file it is. */
export function readHead(file: string, bytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0)).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
