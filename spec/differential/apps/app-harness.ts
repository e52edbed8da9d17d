/**
 * Programs under test against a real etcd 3.4.23 cluster: the cluster (the diff driver's), the fenced
 * resource and belief board on loopback, the lock keys watched for deletions (the truth of when each
 * lease ended), a rival that takes each lock the moment its key is gone and writes with the newer token
 * (as the runbook's competitor does), and the programs themselves, started by an AppSession.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AppLine, AppRunner } from '../../../src/apps/app-runner.js';
import { AppSession } from '../../../src/apps/app-session.js';
import { type AppJudgement, judgeApps, revocationsFromDeletions } from '../../../src/apps/judge.js';
import type { ResourceServer } from '../../../src/apps/resource-server.js';
import { findEtcd } from '../../../src/real-etcd/binaries.js';
import { ChildRegistry } from '../../../src/real-etcd/children.js';
import { EtcdCluster } from '../../../src/real-etcd/etcd-cluster.js';
import { KeyWatch } from '../../../src/real-etcd/key-watch.js';
import { nowUs, sleepMs } from '../../../src/real-etcd/wall-clock.js';
import type { Micros } from '../../../src/clock/time.js';
import { fieldsOf, Trace, type TraceEvent } from '../../../src/trace/trace.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const EXAMPLES = join(ROOT, 'docs/examples/holders');
export const PYTHON = '/usr/bin/python3';
export const HAVE_ETCD = existsSync('/usr/bin/etcd') && existsSync('/usr/bin/etcdctl');
export const HAVE_GO = existsSync('/usr/bin/go') && existsSync('/usr/share/gocode/src/go.etcd.io/etcd/clientv3');
export const HAVE_PYTHON_ETCD3 = existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/etcd3/__init__.py');

const FLAGS = {
  heartbeatMs: 100,
  electionMs: 1000,
  leaseCheckpoint: false,
  leaseCheckpointPersist: false,
  preVote: false,
};

/** Builds the Go holders in GOPATH mode into `outDir` (nothing is written into the repository). */
export async function buildGoHolder(outDir: string): Promise<string> {
  const bin = join(outDir, 'holder');
  await promisify(execFile)('go', ['build', '-o', bin, '.'], {
    cwd: join(EXAMPLES, 'go'),
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: `${join(outDir, 'gopath')}:/usr/share/gocode`,
      GOFLAGS: '',
      // Go's build cache lives under $HOME; without one, a cache of this build's own.
      ...(process.env.GOCACHE === undefined && process.env.HOME === undefined
        ? { GOCACHE: join(outDir, 'gocache') }
        : {}),
    },
    timeout: 300_000,
  });
  return bin;
}

export interface Program {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

export interface RunSetup {
  /** The members each program is given (default: all, n1 — the leader at the start — first). */
  readonly members?: readonly string[];
  /** The member the rival uses. */
  readonly rivalVia?: string;
  readonly ttl: number;
  readonly runMs: number;
}

export interface HolderOutcome {
  readonly name: string;
  readonly lines: readonly string[];
  /** Instants (µs since the run began) of its writes, and whether each was accepted. */
  readonly writes: readonly { readonly t: Micros; readonly accepted: boolean }[];
  /** When its lock key was deleted (its lease ended), and when the rival wrote with the newer token. */
  readonly revokedAt: Micros | undefined;
  readonly rivalWroteAt: Micros | undefined;
  /** When it said it stopped holding (arrival), and when it says it really stopped. */
  readonly stopSaidAt: Micros | undefined;
  readonly stoppedAt: Micros | undefined;
  readonly exit: { readonly code: number | null; readonly signal: string | null; readonly byHarness: boolean };
}

/** One cluster, one AppSession (resource server and programs), each program on its own key and resource. */
export class AppRun {
  readonly trace = new Trace();
  readonly lines: AppLine[] = [];
  readonly rivalWrote = new Map<string, Micros>();
  private readonly t0 = nowUs();
  readonly clock = { now: (): Micros => nowUs() - this.t0 };
  readonly registry = new ChildRegistry();
  cluster!: EtcdCluster;
  watch!: KeyWatch;
  session!: AppSession;
  private rivals: Promise<void> | undefined;
  private done = false;

  constructor(private readonly setup: RunSetup) {}

  get apps(): ReadonlyMap<string, AppRunner> {
    return this.session.apps;
  }

  get server(): ResourceServer {
    return this.session.server;
  }

  async start(): Promise<void> {
    this.cluster = await EtcdCluster.start({ members: 3, flags: FLAGS, binaries: findEtcd(), registry: this.registry });
    const rev = (await this.cluster.members[0]!.rpc.range('lessor-sim/none', false)).revision;
    this.watch = new KeyWatch(this.cluster, rev + 1, () => this.clock.now());
    await this.watch.start(10_000);
    this.session = new AppSession({
      trace: this.trace,
      clock: this.clock,
      members: this.cluster.members.map((m) => ({ name: m.name, url: m.clientUrl })),
      onLine: (l) => this.lines.push(l),
    });
    await this.session.start();
    this.rivals = this.rivalLoop();
  }

  keyOf = (app: string): string => `/locks/${app}`;

  /** Starts a program as holder `name` on lock key /locks/NAME and resource NAME. */
  launch(name: string, p: Program): Promise<AppRunner> {
    return this.session.launch({
      name,
      command: p.command,
      args: p.args,
      ...(this.setup.members !== undefined ? { members: this.setup.members } : {}),
      env: {
        LOCK_KEY: this.keyOf(name),
        LEASE_TTL: String(this.setup.ttl),
        RUN_MS: String(this.setup.runMs),
        // No __pycache__ beside the examples in the checkout.
        PYTHONDONTWRITEBYTECODE: '1',
      },
    });
  }

  /** Waits until every program has said it holds its lock. */
  async acquired(timeoutMs: number): Promise<void> {
    const deadline = this.clock.now() + timeoutMs * 1000;
    while ([...this.apps.keys()].some((n) => !this.server.beliefs.holding(n))) {
      const early = [...this.apps.values()].find((a) => !a.running);
      if (early !== undefined) throw new Error(`${early.spec.name} ended early:\n${this.output(early.spec.name)}`);
      if (this.clock.now() > deadline) throw new Error(`not every program acquired its lock:\n${this.allOutput()}`);
      await sleepMs(50);
    }
  }

  /**
   * The rival: when a program's lock key is deleted, it takes the key with a lease of its own through
   * `rivalVia` and writes once with that put's revision, the newer fencing token.
   */
  private async rivalLoop(): Promise<void> {
    const taken = new Set<string>();
    while (!this.done) {
      for (const d of this.watch.deletions) {
        const app = [...this.apps.keys()].find((n) => this.keyOf(n) === d.key);
        if (app === undefined || taken.has(app)) continue;
        taken.add(app);
        const via = this.cluster.member(this.setup.rivalVia ?? 'n1').rpc;
        try {
          const { id } = await via.leaseGrant(60, 0n);
          const token = await via.put(d.key, `rival-${app}`, id);
          const rival = `rival-${app}`;
          this.server.beliefs.report(rival, { holding: true, lease: id.toString(), token, key: d.key });
          this.server.resource(app).write(rival, token, 'rival');
          this.rivalWrote.set(app, this.clock.now());
        } catch {
          // Left untaken: the outcome then shows no rival write, and the test says so.
        }
      }
      await sleepMs(20);
    }
  }

  output(name: string): string {
    return this.lines
      .filter((l) => l.app === name)
      .map((l) => `${(l.t / 1e6).toFixed(3)} ${l.stream} ${l.text}`)
      .join('\n');
  }

  allOutput(): string {
    return [...this.apps.keys()].map((n) => `--- ${n}\n${this.output(n)}`).join('\n');
  }

  /** Waits for every program to exit on its own (killing any still running after `timeoutMs`). */
  async finish(timeoutMs: number): Promise<Map<string, HolderOutcome>> {
    const deadline = this.clock.now() + timeoutMs * 1000;
    while (!this.session.allExited && this.clock.now() < deadline) await sleepMs(100);
    await this.session.finish();
    this.done = true;
    await this.rivals;
    return this.outcomes();
  }

  judge(): AppJudgement[] {
    const deletions = this.watch.deletions.map((d) => ({ key: d.key, tUs: d.tUs }));
    const events: TraceEvent[] = [...this.trace.events, ...revocationsFromDeletions(this.trace.events, deletions)];
    return judgeApps(events, this.clock.now());
  }

  private outcomes(): Map<string, HolderOutcome> {
    const out = new Map<string, HolderOutcome>();
    for (const [name, app] of this.apps) {
      const mine = this.trace.events.filter((e) => e.member === name);
      const stop = mine.find((e) => e.kind === 'holder-stop');
      const exit = app.exits.at(-1)!;
      out.set(name, {
        name,
        lines: this.lines.filter((l) => l.app === name).map((l) => l.text),
        writes: mine
          .filter((e) => e.kind === 'client-fenced-write')
          .map((e) => ({ t: e.t, accepted: fieldsOf(e).accepted === true })),
        revokedAt: this.watch.deletions.find((d) => d.key === this.keyOf(name))?.tUs,
        rivalWroteAt: this.rivalWrote.get(name),
        stopSaidAt: stop?.t,
        stoppedAt: stop === undefined ? undefined : stop.t - Number(fieldsOf(stop).lateUs ?? 0),
        exit: { code: exit.code, signal: exit.signal, byHarness: exit.byHarness },
      });
    }
    return out;
  }

  async close(): Promise<void> {
    this.done = true;
    await this.session?.close();
    this.watch?.close();
    await this.registry.close();
  }
}
