/** Free TCP ports on 127.0.0.1, chosen at run time (the driver never uses a fixed port). */
import { createServer } from 'node:net';

/** Asks the kernel for an unused port. Another process may take it before etcd binds it; the cluster
 * start notices ("address already in use") and retries with fresh ports. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export type PortPicker = () => Promise<number>;

/** `count` distinct free ports. */
export async function freePorts(count: number, pick: PortPicker = freePort): Promise<number[]> {
  const out: number[] = [];
  while (out.length < count) {
    const p = await pick();
    if (!out.includes(p)) out.push(p);
  }
  return out;
}
