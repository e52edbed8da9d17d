// What a client script runs against: a fresh 3-member real etcd 3.4.23 cluster (the differential driver's
// launcher, etcd's default heartbeat and election timeout, n1 leading), or `lessor-sim serve` as a child
// process, whose endpoints are read from the export line it prints before its `# ready` line.
import { spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { findEtcd } from '../../../../src/real-etcd/binaries.js';
import { ChildRegistry } from '../../../../src/real-etcd/children.js';
import { EtcdCluster } from '../../../../src/real-etcd/etcd-cluster.js';

export interface Target {
  readonly kind: 'etcd' | 'serve';
  /** Client URLs, n1 first. */
  readonly endpoints: readonly string[];
  /** The real cluster, for the fault cases (SIGSTOP, SIGKILL of a member). */
  readonly cluster?: EtcdCluster;
  /** serve's exit code and everything it printed, once it ends (with a FILE, when the scenario does). */
  readonly finished?: Promise<{ readonly code: number | null; readonly output: string }>;
  stop(): Promise<void>;
}

/** etcd's own defaults: TTLs below 1.5 election timeouts are raised to 2 s, as serve's default cluster does. */
const FLAGS = {
  heartbeatMs: 100,
  electionMs: 1000,
  leaseCheckpoint: false,
  leaseCheckpointPersist: false,
  preVote: false,
};

export async function startEtcd(): Promise<Target> {
  const registry = new ChildRegistry();
  try {
    const cluster = await EtcdCluster.start({ members: 3, flags: FLAGS, binaries: findEtcd(), registry });
    return {
      kind: 'etcd',
      endpoints: cluster.members.map((m) => m.clientUrl),
      cluster,
      async stop() {
        await cluster.stop();
        await registry.close();
      },
    };
  } catch (e) {
    await registry.close();
    throw e;
  }
}

const ROOT = resolve(__dirname, '../../../..');
const SERVE_READY_MS = 60_000;

/** Connects once to each endpoint: serve has printed its endpoints and its listeners accept. */
function accepts(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((done) => {
    const s = createConnection({ host: u.hostname, port: Number(u.port) });
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });
}

/** Whether a listener can bind 127.0.0.1:port right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

/**
 * A BASE whose BASE+1..BASE+members are free, below Linux's ephemeral range (32768 and up) so that no
 * outgoing connection of the other clients on this machine takes one between the check and serve's bind.
 */
async function freeBase(members: number): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(Array.from({ length: members }, (_, i) => bindable(base + i + 1)));
    if (!free.includes(false)) return base;
  }
}

const SERVE_ATTEMPTS = 5;

class PortTaken extends Error {}

/**
 * `lessor-sim serve [file] --port BASE [extra]`, again with another BASE when one of its ports was taken
 * meanwhile.
 */
export async function startServe(file?: string, extra: readonly string[] = []): Promise<Target> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServeOn(await freeBase(3), file, extra);
    } catch (e) {
      if (!(e instanceof PortTaken) || attempt >= SERVE_ATTEMPTS) throw e;
    }
  }
}

/** `lessor-sim serve [file] --port BASE` from the sources (tsx), its process group killed by stop(). */
async function startServeOn(base: number, file: string | undefined, extra: readonly string[]): Promise<Target> {
  const args = [
    '--import',
    'tsx',
    resolve(ROOT, 'src/cli/main.ts'),
    'serve',
    ...(file ? [file] : []),
    '--port',
    `${base}`,
    ...extra,
  ];
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((r) => proc.once('exit', r));
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      return;
    }
    await gone;
  };
  const lines: string[] = [];
  proc.stderr.setEncoding('utf8').on('data', (d: string) => lines.push(d));
  const finished = new Promise<{ code: number | null; output: string }>((done) =>
    proc.once('close', (code) => done({ code, output: lines.join('') })),
  );
  try {
    const endpoints = await new Promise<string[]>((ok, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`serve printed no endpoints within ${SERVE_READY_MS} ms`)),
        SERVE_READY_MS,
      );
      proc.once('exit', (code, sig) => {
        clearTimeout(timer);
        const out = lines.join('').trim();
        fail(
          code === 2 && out.includes('EADDRINUSE')
            ? new PortTaken(out)
            : new Error(`serve exited (${code ?? sig}) before it was ready: ${out}`),
        );
      });
      let found: string[] | undefined;
      createInterface({ input: proc.stdout }).on('line', (line) => {
        lines.push(`${line}\n`);
        const m = /^export ETCDCTL_ENDPOINTS=['"]?([^'"\s]+)/.exec(line);
        if (m !== null) found = m[1]!.split(',');
        if (line.startsWith('# ready') && found !== undefined) {
          clearTimeout(timer);
          ok(found);
        }
      });
    });
    for (const ep of endpoints) {
      if (!(await accepts(ep.includes('://') ? ep : `http://${ep}`))) throw new Error(`serve does not accept on ${ep}`);
    }
    return { kind: 'serve', endpoints, finished, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
