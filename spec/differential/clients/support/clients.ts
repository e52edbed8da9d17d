// The client scripts of the conformance suite, how each is started, and why one cannot run here.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../../..');
const CLIENTS = join(ROOT, 'spec/clients');
const PYTHON = '/usr/bin/python3';
const ETCDCTL = '/usr/bin/etcdctl';
const GOCODE = '/usr/share/gocode';

export interface ClientScript {
  /** The golden transcript's name (expected/NAME.txt). */
  readonly name: string;
  /** The command line. */
  command(): { cmd: string; args: string[] };
  /** Work before the first run that may take long (building the Go program), for a beforeAll. */
  readonly prepare?: () => void;
  /** The hard limit on one run; generous, since the machine is shared. */
  readonly timeoutMs: number;
}

/** The command runs and exits 0 within 30 s. */
export function works(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** Why a client cannot run on this machine (with what installs it), or undefined. */
export function missing(client: 'etcdctl' | 'python' | 'node' | 'go'): string | undefined {
  switch (client) {
    case 'etcdctl':
      return existsSync(ETCDCTL) ? undefined : `${ETCDCTL} is missing (apt-get install etcd-client)`;
    case 'python':
      return works(PYTHON, ['-c', 'import etcd3'])
        ? undefined
        : `${PYTHON} cannot import etcd3 (apt-get install python3-etcd3)`;
    case 'node':
      return undefined;
    case 'go':
      return works('go', ['version']) && existsSync(join(GOCODE, 'src/go.etcd.io/etcd/clientv3'))
        ? undefined
        : `go or etcd's clientv3 source is missing (apt-get install golang-go golang-etcd-server-dev)`;
  }
}

export const etcdctl = (topic: string, timeoutMs: number): ClientScript => ({
  name: `etcdctl-${topic}`,
  command: () => ({ cmd: 'sh', args: [join(CLIENTS, 'etcdctl', `${topic}.sh`)] }),
  timeoutMs,
});

export const python = (name: string, file: string): ClientScript => ({
  name,
  command: () => ({ cmd: PYTHON, args: [join(CLIENTS, 'python', file)] }),
  timeoutMs: 60_000,
});

export const node = (name: string, file: string): ClientScript => ({
  name,
  command: () => ({ cmd: process.execPath, args: ['--import', 'tsx', join(CLIENTS, 'node', file)] }),
  timeoutMs: 90_000,
});

/**
 * The Go program, built in GOPATH mode against Debian's copy of etcd 3.4.23's clientv3 into a directory
 * under os.tmpdir() named by a hash of its sources, so an unchanged program is built once per machine.
 */
export function goBinary(): string {
  const dir = join(CLIENTS, 'go');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.go'))
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update(readFileSync(join(dir, f)));
  const out = join(tmpdir(), `lessor-sim-go-clients-${hash.digest('hex').slice(0, 16)}`);
  const bin = join(out, 'clients');
  if (existsSync(bin)) return bin;
  mkdirSync(join(out, 'gopath'), { recursive: true });
  execFileSync('go', ['build', '-o', bin, '.'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 300_000,
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: `${join(out, 'gopath')}:${GOCODE}`,
      GOCACHE: join(tmpdir(), 'lessor-sim-go-cache'),
      GOFLAGS: '',
    },
  });
  return bin;
}

export const go = (topic: 'lease' | 'session' | 'kv' | 'failover' | 'stalled' | 'partitioned'): ClientScript => ({
  name: `go-clientv3-${topic}`,
  command: () => ({ cmd: goBinary(), args: [topic] }),
  prepare: () => void goBinary(),
  timeoutMs: 90_000,
});
