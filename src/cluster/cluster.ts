import { Prng } from '../clock/prng.js';
import { Process } from '../clock/process.js';
import { Scheduler } from '../clock/scheduler.js';
import type { Micros } from '../clock/time.js';
import { idKey, type IdKey } from '../lessor/lease-id.js';
import { Marks } from '../trace/marks.js';
import { Trace, type TraceFields, type TraceKind } from '../trace/trace.js';
import { Network, Packet, type PacketHandler, type WireLabel } from './network/network.js';
import type { ClusterObserver } from './observer.js';
import { RaftTransport } from './raft/transport.js';
import type {
  ClientRequest,
  ClientResponse,
  ClusterTransport,
  KeepAliveHandlers,
  KeepAliveResponse,
  KeepAliveStream,
  RpcError,
  StreamOptions,
  WatchHandlers,
  WatchRequestStream,
  WatchStream,
  WatchStreamHandlers,
  WatchStreamTransport,
} from './server/api.js';
import { serveUnary } from './server/client-api.js';
import { defaultServerConfig, type ServerConfig } from './server/config.js';
import { Disk } from './server/disk.js';
import { EtcdServer, type ServedStream } from './server/etcd-server.js';
import { toRpcError, ErrNoLeader } from './server/errors.js';
import { KeepAliveServerStream } from './server/keepalive-stream.js';
import { ServerWatchStream } from './server/watch-stream.js';

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

const connectionReset: RpcError = { code: 'Unavailable', name: 'ErrConnectionReset', message: 'transport is closing' };
const connectionRefused: RpcError = {
  code: 'Unavailable',
  name: 'ErrConnectionRefused',
  message: 'connection refused',
};

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
    return new ClientTransport(this, clientName);
  }

  private emit<K extends TraceKind>(member: string, kind: K, fields: TraceFields[K]): void {
    if (this.trace.enabled) this.trace.emit({ t: this.sched.now(), member, kind, fields });
  }
}

const UNARY_REQUEST = 0;
const UNARY_RESPONSE = 1;

/** The client side of the gRPC connections: requests and stream messages as 'client' traffic. */
class ClientTransport implements ClusterTransport, WatchStreamTransport {
  constructor(
    private readonly cluster: Cluster,
    private readonly client: string,
  ) {}

  get members(): readonly string[] {
    return this.cluster.names;
  }

  /** Sends to a member; if its process is dead the connection is refused and `refused` runs here. */
  private toMember(to: string, fn: (s: EtcdServer) => void, refused?: () => void): void {
    this.cluster.network.send(
      this.client,
      to,
      'client',
      () => {
        const s = this.cluster.server(to);
        if (s !== undefined) fn(s);
      },
      refused,
    );
  }

  private toClient(from: string, fn: () => void): void {
    this.cluster.network.send(from, this.client, 'client', fn);
  }

  unary(to: string, req: ClientRequest, cb: (res: ClientResponse | RpcError) => void): void {
    this.cluster.network.transmit(this.client, to, 'client', new Packet(this.unaryCalls, UNARY_REQUEST, req, cb));
  }

  /**
   * A unary call is a request packet (the request in `arg`, the callback in `extra`); its response, or
   * the refusal of a dead member, travels back the way it came. A response to a dead client is lost.
   * A plain object, not this class: it shares the map of the network's other literal handlers, so the
   * handler call in `Packet.run` sees fewer shapes.
   */
  private readonly unaryCalls: PacketHandler = {
    deliver: (p) => {
      if (p.tag === UNARY_RESPONSE)
        return (p.extra as (res: ClientResponse | RpcError) => void)(p.arg as ClientResponse);
      const s = this.cluster.server(p.to);
      if (s !== undefined)
        serveUnary(s, p.arg as ClientRequest, (res) =>
          p.answer(new Packet(this.unaryCalls, UNARY_RESPONSE, res, p.extra)),
        );
    },
    refused: (p) => {
      if (p.tag === UNARY_REQUEST) p.answer(new Packet(this.unaryCalls, UNARY_RESPONSE, connectionRefused, p.extra));
    },
    label: (p) => {
      const m = p.arg as { readonly op?: string; readonly id?: unknown };
      const lease = typeof m.id === 'bigint' ? m.id : undefined;
      return { kind: p.tag === UNARY_REQUEST ? 'request' : 'answer', carries: [m.op ?? 'error'], lease };
    },
  };

  /**
   * A Watch stream (etcd's Watch RPC) to one member, requests and responses in order on the client's
   * link. `requireLeader` is clientv3's WithRequireLeader: the stream ends when the member loses its
   * leader (etcd's default is to keep it).
   */
  openWatch(
    to: string,
    handlers: WatchStreamHandlers,
    opts: { readonly requireLeader?: boolean } = {},
  ): WatchRequestStream {
    let closed = false;
    let server: ServerWatchStream | undefined;
    let served: ServedStream | undefined;
    this.toMember(
      to,
      (s) => {
        if (closed) return;
        const stream: ServedStream = {
          requireLeader: opts.requireLeader === true,
          abort: (reason) => {
            server?.close();
            s.removeStream(stream);
            const err = reason === 'no-leader' ? toRpcError(ErrNoLeader) : connectionReset;
            this.toClient(to, () => !closed && handlers.onError(err));
          },
        };
        if (!s.addStream(stream)) {
          this.toClient(to, () => !closed && handlers.onError(toRpcError(ErrNoLeader)));
          return;
        }
        served = stream;
        server = new ServerWatchStream(s, (r) => this.toClient(to, () => !closed && handlers.onResponse(r)));
      },
      () => !closed && handlers.onError(connectionRefused),
    );
    return {
      send: (req) => this.toMember(to, () => server?.handle(req)),
      close: () => {
        closed = true;
        this.toMember(to, (s) => {
          server?.close();
          if (served !== undefined) s.removeStream(served);
        });
      },
    };
  }

  openKeepAlive(to: string, handlers: KeepAliveHandlers, opts?: StreamOptions): KeepAliveStream {
    return new ClientKeepAliveStream(this.cluster, this.client, to, handlers, opts?.requireLeader === true);
  }

  watch(
    to: string,
    key: string,
    opts: { prefix?: boolean; fromRevision?: number; requireLeader?: boolean },
    handlers: WatchHandlers,
  ): WatchStream {
    let closed = false;
    let cancel: (() => void) | undefined;
    this.toMember(
      to,
      (s) => {
        if (closed) return;
        const stream: ServedStream = {
          requireLeader: opts.requireLeader === true,
          abort: (reason) => {
            cancel?.();
            s.removeStream(stream);
            this.toClient(
              to,
              () => !closed && handlers.onError(reason === 'no-leader' ? toRpcError(ErrNoLeader) : connectionReset),
            );
          },
        };
        if (!s.addStream(stream)) {
          this.toClient(to, () => !closed && handlers.onError(toRpcError(ErrNoLeader)));
          return;
        }
        const watchOpts = {
          ...(opts.prefix === true ? { prefix: true } : {}),
          ...(opts.fromRevision !== undefined ? { fromRevision: opts.fromRevision } : {}),
        };
        cancel = s.store.watch(key, watchOpts, (events, compacted) => {
          if (compacted !== undefined) return stream.abort('stopped');
          const header = s.header();
          this.toClient(to, () => !closed && handlers.onEvents(events, header));
        });
      },
      () => !closed && handlers.onError(connectionRefused),
    );
    return {
      close: () => {
        closed = true;
        this.toMember(to, () => cancel?.());
      },
    };
  }
}

const REQUEST = 0;
const RESPONSE = 1;

/**
 * The client's end of one LeaseKeepAlive stream. Requests sent before the server end exists (the open
 * is still on the wire) wait for it. Requests (tag REQUEST, the lease ID and its key) and responses
 * (RESPONSE, the response and the request's key) travel as packets this stream handles, with no closure
 * per message.
 */
class ClientKeepAliveStream implements KeepAliveStream, PacketHandler {
  private server: KeepAliveServerStream | undefined;
  /** The member the server end was opened on. */
  private member: EtcdServer | undefined;
  private closed = false;
  private readonly pending: bigint[] = [];
  private readonly pendingKeys: IdKey[] = [];

  constructor(
    private readonly cluster: Cluster,
    private readonly client: string,
    private readonly to: string,
    private readonly handlers: KeepAliveHandlers,
    /** The stream's context carries `hasleader`. */
    private readonly requireLeader: boolean,
  ) {
    cluster.network.send(
      client,
      to,
      'client',
      () => {
        const s = cluster.server(to);
        if (s !== undefined) this.open(s);
      },
      () => !this.closed && handlers.onError(connectionRefused),
    );
  }

  send(id: bigint, key: IdKey = idKey(id)): void {
    this.cluster.network.transmit(this.client, this.to, 'client', new Packet(this, REQUEST, id, key));
  }

  close(): void {
    this.closed = true;
    this.cluster.network.send(this.client, this.to, 'client', () => {
      if (this.cluster.server(this.to) !== undefined) this.server?.cancel();
    });
  }

  deliver(p: Packet): void {
    if (p.tag === RESPONSE) {
      if (!this.closed) this.handlers.onResponse(p.arg as KeepAliveResponse, p.extra as IdKey);
      return;
    }
    const id = p.arg as bigint;
    const m = this.member;
    // A request reaches only a running member. While the one the stream was opened on has not stopped,
    // it is that member's current server (a new one boots only after a crash stopped the old), so the
    // lookup is needed only otherwise.
    if ((m === undefined || m.stopped) && this.cluster.server(this.to) === undefined) return;
    const key = p.extra as IdKey;
    if (this.server === undefined) {
      this.pending.push(id);
      this.pendingKeys.push(key);
    } else this.server.recv(id, key);
  }

  /** Neither kind is answered when it meets a dead process. */
  refused(): void {}

  label(p: Packet): WireLabel {
    return p.tag === REQUEST
      ? { kind: 'keepalive', lease: p.arg as bigint }
      : { kind: 'keepalive-answer', lease: (p.arg as KeepAliveResponse).id };
  }

  private open(s: EtcdServer): void {
    if (this.closed) return;
    this.member = s;
    const net = this.cluster.network;
    this.server = new KeepAliveServerStream(
      s,
      (r, key) => net.transmit(this.to, this.client, 'client', new Packet(this, RESPONSE, r, key)),
      (e) => net.send(this.to, this.client, 'client', () => !this.closed && this.handlers.onError(e)),
      this.requireLeader,
    );
    const server = this.server;
    const keys = this.pendingKeys.splice(0);
    this.pending.splice(0).forEach((id, i) => {
      server.recv(id, keys[i]!);
    });
  }
}
