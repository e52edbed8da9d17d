import { Prng } from '../clock/prng.js';
import { Process } from '../clock/process.js';
import { Scheduler } from '../clock/scheduler.js';
import type { Micros } from '../clock/time.js';
import { Marks } from '../trace/marks.js';
import { Trace, type TraceFields, type TraceKind } from '../trace/trace.js';
import { InProcessTransport } from './client-transport/in-process.js';
import { Network } from './network/network.js';
import type { ClusterObserver } from './observer.js';
import { RaftTransport } from './raft/transport.js';
import type { ClusterTransport, WatchStreamTransport } from './server/api.js';
import { defaultServerConfig, type ServerConfig } from './server/config.js';
import { Disk } from './server/disk.js';
import { EtcdServer } from './server/etcd-server.js';

export interface ClusterConfig extends ServerConfig {
  readonly members: number;
  readonly latencyUs: Micros;
  readonly jitterUs: Micros;
  readonly lossProbability: number;
  readonly seed: number | string;
  /**
   * What a member resumed from SIGSTOP does first: run its held timers ('timers-first'), read the network
   * input that waited ('input-first'), or either, drawn per resume from the seed ('seeded', the default).
   * Go's scheduler gives no order between a due ticker and a readable socket.
   */
  readonly resumeOrder: ResumeOrder;
}

export type ResumeOrder = 'seeded' | 'timers-first' | 'input-first';
export const RESUME_ORDERS: readonly ResumeOrder[] = ['seeded', 'timers-first', 'input-first'];

export const defaultClusterConfig: ClusterConfig = {
  ...defaultServerConfig,
  members: 3,
  latencyUs: 1000,
  jitterUs: 0,
  lossProbability: 0,
  seed: 1,
  resumeOrder: 'seeded',
};

export interface ClusterDeps {
  readonly sched?: Scheduler;
  readonly trace?: Trace;
  readonly marks?: Marks;
  /** An onlooker of messages and run-loop passes (the playground's picture); the trace stays the same. */
  readonly observer?: ClusterObserver;
}

/** The goroutines of one member, as separately stoppable processes. */
interface MemberProcesses {
  readonly main: Process;
  readonly raft: Process;
  readonly apply: Process;
}

/**
 * A simulated etcd cluster: members n1..nN on one network and one virtual clock, each with a disk that
 * survives crashes, and the fault actions scenario files name (crash, restart, pause, resume,
 * partition, heal, clock jumps, leader transfer). n1 campaigns at time 0, so it is the first leader.
 */
export class Cluster {
  readonly config: ClusterConfig;
  readonly sched: Scheduler;
  readonly trace: Trace;
  readonly marks: Marks;
  readonly network: Network;
  readonly prng: Prng;
  private resumePrng: Prng | undefined;
  readonly names: readonly string[];
  private readonly transport: RaftTransport;
  private readonly observer: ClusterObserver | undefined;
  private readonly procs = new Map<string, MemberProcesses>();
  private readonly disks = new Map<string, Disk>();
  private readonly servers = new Map<string, EtcdServer>();

  constructor(config: Partial<ClusterConfig> = {}, deps: ClusterDeps = {}) {
    this.config = { ...defaultClusterConfig, ...config };
    const c = this.config;
    if (!Number.isInteger(c.members) || c.members < 1 || c.members > 7)
      throw new RangeError(`cluster: members must be 1..7, got ${c.members}`);
    this.sched = deps.sched ?? new Scheduler();
    this.trace = deps.trace ?? new Trace();
    this.marks = deps.marks ?? new Marks();
    this.prng = new Prng(c.seed);
    this.network = new Network(
      this.sched,
      this.prng,
      { latencyUs: c.latencyUs, jitterUs: c.jitterUs, lossProbability: c.lossProbability },
      this.trace,
    );
    this.network.observer = deps.observer;
    this.observer = deps.observer;
    this.transport = new RaftTransport(this.network);
    this.names = Array.from({ length: c.members }, (_, i) => `n${i + 1}`);
    for (const name of this.names) {
      const m: MemberProcesses = {
        main: new Process(name, this.sched),
        raft: new Process(`${name}/raft`, this.sched),
        apply: new Process(`${name}/apply`, this.sched),
      };
      this.procs.set(name, m);
      this.network.attach(name, m.main);
      // etcd's log starts with a ConfChange and a publish per member and the cluster version (2N + 2 entries
      // with the leader's empty entry, measured on 3.4.23); the model's log has only the empty entry.
      this.disks.set(name, new Disk(2 * c.members + 1));
    }
    for (const name of this.names) this.boot(name);
    this.servers.get('n1')!.raft.campaign();
  }

  private boot(name: string): void {
    const s = new EtcdServer({
      name,
      memberNumber: this.names.indexOf(name) + 1,
      members: this.names,
      process: this.procs.get(name)!.main,
      raftProcess: this.procs.get(name)!.raft,
      applyProcess: this.procs.get(name)!.apply,
      network: this.network,
      transport: this.transport,
      registry: (n) => this.servers.get(n),
      prng: this.prng.fork(name),
      trace: this.trace,
      marks: this.marks,
      disk: this.disks.get(name)!,
      config: this.config,
      observer: this.observer,
    });
    this.servers.set(name, s);
  }

  // ---- Views ---------------------------------------------------------------------------------------

  now(): Micros {
    return this.sched.now();
  }

  /** The running server of a member; undefined while it is crashed. */
  server(name: string): EtcdServer | undefined {
    const s = this.servers.get(name);
    return s === undefined || s.stopped ? undefined : s;
  }

  /** A member's main process (gRPC and lessor); its raft and apply loops run on processes of their own. */
  /** The term `name` last wrote to its WAL: what a crashed member comes back with. */
  persistedTerm(name: string): number {
    return this.disks.get(name)?.wal.term ?? 0;
  }

  process(name: string): Process {
    return this.member(name).main;
  }

  private member(name: string): MemberProcesses {
    const m = this.procs.get(name);
    if (m === undefined) throw new RangeError(`cluster: unknown member ${name}; members are ${this.names.join(', ')}`);
    return m;
  }

  /** The member that is raft leader in the highest term among running members, if any. */
  leader(): EtcdServer | undefined {
    let best: EtcdServer | undefined;
    for (const name of this.names) {
      const s = this.server(name);
      if (s === undefined || !this.procs.get(name)!.main.running || s.raft.role !== 'leader') continue;
      if (best === undefined || s.raft.term > best.raft.term) best = s;
    }
    return best;
  }

  runUntil(t: Micros): void {
    this.sched.runUntil(t);
  }

  // ---- Faults --------------------------------------------------------------------------------------

  crash(name: string): void {
    const m = this.member(name);
    if (!m.main.alive) return;
    this.servers.get(name)?.stop();
    for (const p of [m.main, m.raft, m.apply]) p.kill();
    this.emit(name, 'member-crash', {});
  }

  restart(name: string): void {
    const m = this.member(name);
    if (m.main.alive) throw new Error(`cluster: ${name} is running; only a crashed member can restart`);
    for (const p of [m.main, m.raft, m.apply]) p.restart();
    this.emit(name, 'member-restart', {});
    this.boot(name);
    // Start's adjustTicks. Active peers: running (a stopped etcd answers no stream handshake) and reachable.
    this.servers
      .get(name)!
      .adjustTicks(
        this.names.length,
        () =>
          this.names.filter((n) => n !== name && this.member(n).main.running && this.network.connected(name, n)).length,
      );
  }

  /** SIGSTOP: every goroutine of the member stops. */
  pause(name: string): void {
    const m = this.member(name);
    for (const p of [m.main, m.raft, m.apply]) p.pause();
    this.emit(name, 'member-pause', {});
  }

  resume(name: string): void {
    const m = this.member(name);
    const order = this.resumeOrderNow();
    this.emit(name, 'member-resume', { order });
    if (order === 'timers-first') {
      // The raft loop first: its held tick, then what it hands on (applies, soft state), in order; the
      // lessor's overdue pass then proposes to a raft loop that has not yet read the peers' messages.
      for (const p of [m.raft, m.apply, m.main]) p.resume();
      return;
    }
    // The other branch of the race: the stream readers (on the main process here) get the CPU first and
    // queue the peers' messages for the raft loop, then the lessor's overdue pass offers a lease on its
    // stale deadline; the raft loop then reads those messages (steps down, follows the new leader)
    // before the revoke's proposal reaches it, and forwards that to the new leader, which commits it.
    m.main.resume(true);
    m.apply.resume();
    m.raft.resume();
  }

  /** One draw per resume from its own stream, so the choice shifts no other component's draws. */
  private resumeOrderNow(): 'timers-first' | 'input-first' {
    const o = this.config.resumeOrder;
    if (o !== 'seeded') return o;
    this.resumePrng ??= this.prng.fork('resume-order');
    return this.resumePrng.float() < 0.5 ? 'timers-first' : 'input-first';
  }

  /**
   * One loop of the member hangs while the rest keeps serving: `raft` models a leader stuck in fsync
   * (etcd-io/etcd#15247: no ticks, no messages, no soft-state change, proposals queue up), `apply` a
   * backlog of committed entries not yet applied.
   */
  stall(name: string, loop: 'raft' | 'apply'): void {
    this.member(name)[loop].pause();
    this.emit(name, 'member-stall', { loop });
  }

  unstall(name: string, loop: 'raft' | 'apply'): void {
    this.emit(name, 'member-unstall', { loop });
    this.member(name)[loop].resume();
  }

  partition(groups: readonly (readonly string[])[]): void {
    for (const g of groups) for (const n of g) this.process(n);
    this.network.partition(groups);
  }

  heal(): void {
    this.network.heal();
  }

  /** The member's wall clock jumps by `delta`; its monotonic clock does not move. */
  clockJump(name: string, delta: Micros): void {
    this.process(name).jumpWall(delta);
    this.emit(name, 'member-clock-jump', { delta });
  }

  /** etcdctl move-leader: asks the current leader to hand over to `to`. False when there is no leader. */
  transferLeader(to: string): boolean {
    this.process(to);
    const l = this.leader();
    if (l === undefined || l.name === to) return l !== undefined;
    l.onRaftLoop(() => l.raft.transferLeadership(to));
    return true;
  }

  // ---- Clients -------------------------------------------------------------------------------------

  /** Attaches a client process to the network and returns its way into the cluster. */
  connect(clientName: string, clientProcess: Process): ClusterTransport & WatchStreamTransport {
    this.network.attach(clientName, clientProcess);
    return new InProcessTransport(this, clientName);
  }

  private emit<K extends TraceKind>(member: string, kind: K, fields: TraceFields[K]): void {
    if (this.trace.enabled) this.trace.emit({ t: this.sched.now(), member, kind, fields });
  }
}
