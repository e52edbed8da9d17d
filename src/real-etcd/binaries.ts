/** Finding etcd and etcdctl the way a shell would: the first executable of that name on PATH. */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { DriverError } from './errors.js';

export interface EtcdBinaries {
  readonly etcd: string;
  readonly etcdctl: string;
}

function onPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Both binaries, or one DriverError saying which is missing and how to install it. */
export function findEtcd(searchPath = process.env.PATH ?? ''): EtcdBinaries {
  const etcd = onPath('etcd', searchPath);
  const etcdctl = onPath('etcdctl', searchPath);
  const missing = [etcd === undefined ? 'etcd' : undefined, etcdctl === undefined ? 'etcdctl' : undefined].filter(
    (x) => x !== undefined,
  );
  if (etcd === undefined || etcdctl === undefined) {
    throw new DriverError(
      `${missing.join(' and ')} not found on PATH; install etcd 3.4 ` +
        `(Debian: apt-get install -y etcd-server etcd-client) to run diff`,
    );
  }
  return { etcd, etcdctl };
}
