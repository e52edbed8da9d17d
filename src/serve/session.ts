/**
 * The simulated side of `serve`: every real connection is a client process attached to the simulated network,
 * and every call becomes that client's request to its member, so latency, pauses and partitions apply to it as
 * to the built-in clients. Deterministic: the same inputs at the same virtual instants give the same trace,
 * whether they come from sockets (serve) or from a record (run --input). Answers go to a Sink: the gRPC
 * calls when serving, nowhere when replaying.
 */
import { Process } from '../clock/process.js';
import type { Cluster } from '../cluster/cluster.js';
import { closure } from '../cluster/network/network.js';
import {
  isRpcError,
  type ClientRequest,
  type ClientResponse,
  type ClusterTransport,
  type KeepAliveStream,
  type ResponseHeader,
  type RpcError,
  type WatchRequestStream,
  type WatchStreamTransport,
} from '../cluster/server/api.js';
import type { EtcdServer } from '../cluster/server/etcd-server.js';
import { toRpcError } from '../cluster/server/errors.js';
import { hashByRev, type MvccError } from '../cluster/mvcc/index.js';
import type { TraceFields, TraceKind } from '../trace/trace.js';
import type { ClusterIds } from './ids.js';
import { injectFault, whyNot } from './live/faults.js';
import type { Input, UnaryMethod } from './inputs.js';
import {
  AUTH_NOT_ENABLED,
  BAD_LEADER_TRANSFEREE,
  NO_ALARMS,
  NOT_LEADER,
  big,
  bytesOf,
  deleteBodyOf,
  deleteOf,
  headerOf,
  int,
  putBodyOf,
  putOf,
  rangeBodyOf,
  rangeOf,
  txnBodyOf,
  txnOf,
  watchRequestOf,
  watchResponseOf,
  wireError,
  type Json,
  type WireError,
} from './wire.js';

/** Where answers go. */
export interface Sink {
  /** A unary call's response. */
  reply(call: number, res: Json): void;
  /** A call ends with an error status. */
  fail(call: number, e: WireError): void;
  /** A message on a stream. */
  write(call: number, msg: Json): void;
  /** A stream ends with OK. */
  end(call: number): void;
}

export const NO_SINK: Sink = { reply() {}, fail() {}, write() {}, end() {} };

export interface SessionOptions {
  /** Each member's client URL, for MemberList (absent when replaying). */
  readonly clientUrls?: Readonly<Record<string, string>>;
  /** Each member's advertised peer URL, for MemberList (absent when replaying); nothing listens there. */
  readonly peerUrls?: Readonly<Record<string, string>>;
  /** The etcd version Status reports. */
  readonly version: string;
}

interface Conn {
  readonly name: string;
  readonly member: string;
  readonly transport: ClusterTransport & WatchStreamTransport;
}

interface KeepAliveCall {
  readonly kind: 'keepalive';
  readonly stream: KeepAliveStream;
  sent: number;
  answered: number;
  halfClosed: boolean;
}

interface WatchCall {
  readonly kind: 'watch';
  readonly stream: WatchRequestStream;
}

type Call =
  | { readonly kind: 'unary'; readonly method: UnaryMethod; readonly client: string }
  | KeepAliveCall
  | WatchCall;

export class ServeSession {
  private readonly conns = new Map<number, Conn>();
  private readonly calls = new Map<number, Call>();

  constructor(
    private readonly cluster: Cluster,
    private readonly ids: ClusterIds,
    private readonly sink: Sink,
    private readonly opts: SessionOptions,
  ) {}

  apply(input: Input): void {
    switch (input.kind) {
      case 'connect': {
        if (!this.cluster.names.includes(input.member) || this.conns.has(input.conn)) return;
        // Upper case: a scenario's client names are lower case, so the two never collide.
        const name = `gRPC${input.conn}`;
        const process = new Process(name, this.cluster.sched);
        this.conns.set(input.conn, { name, member: input.member, transport: this.cluster.connect(name, process) });
        return;
      }
      case 'unary': {
        const conn = this.conns.get(input.conn);
        if (conn === undefined) return;
        this.calls.set(input.call, { kind: 'unary', method: input.method, client: conn.name });
        this.emit(conn.name, 'served-call', { call: input.call, method: input.method, to: conn.member });
        return this.unary(conn, input.call, input.method, input.req);
      }
      case 'open': {
        const conn = this.conns.get(input.conn);
        if (conn === undefined) return;
        this.emit(conn.name, 'served-call', { call: input.call, method: input.method, to: conn.member });
        if (input.method === 'LeaseKeepAlive') return this.openKeepAlive(conn, input.call, input.requireLeader);
        return this.openWatch(conn, input.call, input.requireLeader);
      }
      case 'send': {
        const c = this.calls.get(input.call);
        if (c?.kind === 'keepalive') {
          c.sent++;
          return c.stream.send(big(input.req.ID));
        }
        if (c?.kind === 'watch') {
          const req = watchRequestOf(input.req);
          if (req !== undefined) c.stream.send(req);
        }
        return;
      }
      case 'half-close': {
        const c = this.calls.get(input.call);
        if (c?.kind !== 'keepalive') return;
        c.halfClosed = true;
        return this.finishIfOwedNothing(input.call, c);
      }
      case 'cancel': {
        const c = this.calls.get(input.call);
        this.calls.delete(input.call);
        if (c?.kind === 'keepalive') c.stream.close();
        if (c?.kind === 'watch') c.stream.close();
        return;
      }
      case 'fault': {
        if (input.member !== undefined && !this.cluster.names.includes(input.member)) return;
        // Checked again here, in virtual time: a scenario step at the same instant may have got there first.
        if (whyNot(this.cluster, input) !== undefined) return;
        const { action, member } = input;
        this.emit('sim', 'served-fault', member === undefined ? { action } : { action, member });
        return injectFault(this.cluster, input);
      }
    }
  }

  // ---- Unary ---------------------------------------------------------------------------------------

  /** Ends a unary call that is still waiting, tracing its answer; false when it is not (cancelled, answered). */
  private done(call: number, err?: string): boolean {
    const c = this.calls.get(call);
    if (c?.kind !== 'unary') return false;
    this.calls.delete(call);
    this.emit(c.client, 'served-answer', { call, method: c.method, ...(err !== undefined ? { err } : {}) });
    return true;
  }

  private reply(call: number, res: Json): void {
    if (this.done(call)) this.sink.reply(call, res);
  }

  private fail(call: number, e: WireError): void {
    if (this.done(call, e.message)) this.sink.fail(call, e);
  }

  private emit<K extends TraceKind>(member: string, kind: K, fields: TraceFields[K]): void {
    const trace = this.cluster.trace;
    if (trace.enabled) trace.emit({ t: this.cluster.now(), member, kind, fields });
  }

  private header(h: ResponseHeader): Json {
    return headerOf(this.ids, h);
  }

  /** Sends a model request; the answer (or its error) comes back on the connection's process. */
  private model(conn: Conn, call: number, req: ClientRequest, answer: (res: ClientResponse) => Json): void {
    conn.transport.unary(conn.member, req, (res) => {
      if (isRpcError(res)) this.fail(call, wireError(res as RpcError));
      else this.reply(call, { header: this.header(res.header), ...answer(res) });
    });
  }

  /**
   * A request the member answers from its own state without raft (Status, MemberList, Authenticate): a
   * round trip over the simulated network to the member's process.
   */
  private local(conn: Conn, fn: (s: EtcdServer) => void): void {
    this.atMember(conn, (s, back) => back(() => fn(s)));
  }

  /** Runs `fn` on the member's process; `back` carries an answer over the network to the client. */
  private atMember(conn: Conn, fn: (s: EtcdServer, back: (answer: () => void) => void) => void): void {
    const net = this.cluster.network;
    const deliver = (): void => {
      const s = this.cluster.server(conn.member);
      if (s !== undefined) fn(s, (answer) => net.send(conn.member, conn.name, 'client', closure(answer)));
    };
    net.send(conn.name, conn.member, 'client', closure(deliver));
  }

  /**
   * maintenanceServer.MoveLeader and EtcdServer.MoveLeader: only the leader accepts it, the transferee must
   * be a member; raft is asked to transfer, and the call is answered once this member sees the transferee
   * lead, looked at every tick as etcd does. If the transfer never completes the call waits until the
   * client gives up (etcd answers ErrTimeoutLeaderTransfer only when the call's context is already done).
   */
  private moveLeader(conn: Conn, call: number, targetID: string): void {
    this.atMember(conn, (s, back) => {
      if (!s.isLeader()) return back(() => this.fail(call, NOT_LEADER));
      const to = this.ids.names.find((n) => this.ids.memberId(n) === targetID);
      if (to === undefined) return back(() => this.fail(call, BAD_LEADER_TRANSFEREE));
      if (to !== s.name) s.onRaftLoop(() => s.raft.transferLeadership(to));
      const poll = (): void => {
        if (!this.calls.has(call) || s.stopped) return;
        if (s.leader() === to) back(() => this.reply(call, {}));
        else s.proc.after(s.timings.tickUs, poll);
      };
      poll();
    });
  }

  private unary(conn: Conn, call: number, method: UnaryMethod, r: Json): void {
    switch (method) {
      case 'LeaseGrant':
        return this.model(conn, call, { op: 'LeaseGrant', ttl: int(r.TTL), id: big(r.ID) }, (res) =>
          res.op === 'LeaseGrant' ? { ID: String(res.id), TTL: String(res.ttl), error: '' } : {},
        );
      case 'LeaseRevoke':
        return this.model(conn, call, { op: 'LeaseRevoke', id: big(r.ID) }, () => ({}));
      case 'LeaseTimeToLive':
        return this.model(conn, call, { op: 'LeaseTimeToLive', id: big(r.ID), keys: r.keys === true }, (res) =>
          res.op === 'LeaseTimeToLive'
            ? {
                ID: String(res.id),
                TTL: String(res.ttl),
                grantedTTL: String(res.grantedTTL),
                keys: res.keys.map(bytesOf),
              }
            : {},
        );
      case 'LeaseLeases':
        return this.model(conn, call, { op: 'LeaseLeases' }, (res) =>
          res.op === 'LeaseLeases' ? { leases: res.ids.map((id) => ({ ID: String(id) })) } : {},
        );
      case 'Range':
        return this.model(conn, call, rangeOf(r), (res) => (res.op === 'Range' ? rangeBodyOf(res) : {}));
      case 'Put':
        return this.model(conn, call, putOf(r), (res) => (res.op === 'Put' ? putBodyOf(res) : {}));
      case 'DeleteRange':
        return this.model(conn, call, deleteOf(r), (res) => (res.op === 'DeleteRange' ? deleteBodyOf(res) : {}));
      case 'Txn':
        return this.model(conn, call, txnOf(r), (res) => (res.op === 'Txn' ? txnBodyOf(res) : {}));
      case 'Compact':
        return this.model(
          conn,
          call,
          { op: 'Compaction', revision: int(r.revision), ...(r.physical === true ? { physical: true } : {}) },
          () => ({}),
        );
      case 'Status':
        return this.local(conn, (s) =>
          this.reply(call, {
            header: this.header(s.header()),
            version: this.opts.version,
            dbSize: '24576',
            leader: s.leader() === undefined ? '0' : this.ids.memberId(s.leader()!),
            raftIndex: String(s.raft.commitIndex),
            raftTerm: String(s.raft.term),
            raftAppliedIndex: String(s.appliedIndex),
            errors: [],
            dbSizeInUse: '24576',
            isLearner: false,
          }),
        );
      case 'Alarm':
        // etcd applies it through raft; with no alarm store, GET lists none and DEACTIVATE finds none to
        // clear (both answer an empty list, without a header, as etcd's applier does).
        return this.local(conn, () =>
          r.action === 'ACTIVATE' ? this.fail(call, NO_ALARMS) : this.reply(call, { alarms: [] }),
        );
      case 'Defragment':
        // The model has no backend file to rewrite: a no-op that answers as etcd does (no header).
        return this.local(conn, () => this.reply(call, {}));
      case 'HashKV':
        // Answered from the member's own store, as etcd's maintenance server does, without raft.
        return this.local(conn, (s) => {
          const st = s.store;
          let h: ReturnType<typeof hashByRev>;
          try {
            h = hashByRev(st.backend, st.currentRevision, st.compactRevision, int(r.revision));
          } catch (e) {
            return this.fail(call, wireError(toRpcError(e as MvccError)));
          }
          this.reply(call, {
            header: this.header(s.header()),
            hash: h.hash,
            compact_revision: String(h.compactRev),
          });
        });
      case 'MoveLeader':
        return this.moveLeader(conn, call, String(r.targetID));
      case 'MemberList':
        return this.local(conn, (s) =>
          this.reply(call, {
            header: this.header(s.header()),
            members: this.cluster.names.map((n) => ({
              ID: this.ids.memberId(n),
              name: n,
              peerURLs: this.opts.peerUrls?.[n] !== undefined ? [this.opts.peerUrls[n]] : [],
              clientURLs: this.opts.clientUrls?.[n] !== undefined ? [this.opts.clientUrls[n]] : [],
              isLearner: false,
            })),
          }),
        );
      case 'Authenticate':
        return this.local(conn, () => this.fail(call, AUTH_NOT_ENABLED));
    }
  }

  // ---- Lease keep-alive ----------------------------------------------------------------------------

  private openKeepAlive(conn: Conn, call: number, requireLeader: boolean): void {
    const c: KeepAliveCall = {
      kind: 'keepalive',
      sent: 0,
      answered: 0,
      halfClosed: false,
      stream: conn.transport.openKeepAlive(
        conn.member,
        {
          onResponse: (r) => {
            if (this.calls.get(call) !== c) return;
            c.answered++;
            this.sink.write(call, { header: this.header(r.header), ID: String(r.id), TTL: String(r.ttl) });
            this.finishIfOwedNothing(call, c);
          },
          onError: (e) => {
            if (this.calls.get(call) !== c) return;
            this.calls.delete(call);
            c.stream.close();
            this.sink.fail(call, wireError(e));
          },
        },
        { requireLeader },
      ),
    };
    this.calls.set(call, c);
  }

  /** A half-closed stream ends with OK once every request it carried is answered. */
  private finishIfOwedNothing(call: number, c: KeepAliveCall): void {
    if (!c.halfClosed || c.answered < c.sent) return;
    this.calls.delete(call);
    c.stream.close();
    this.sink.end(call);
  }

  // ---- Watch ---------------------------------------------------------------------------------------

  /** A Watch stream: requests go to the member's watch stream as they come, its responses back as they come. */
  private openWatch(conn: Conn, call: number, requireLeader: boolean): void {
    const c: WatchCall = {
      kind: 'watch',
      stream: conn.transport.openWatch(
        conn.member,
        {
          onResponse: (r) => {
            if (this.calls.get(call) === c) this.sink.write(call, watchResponseOf(this.ids, r));
          },
          onError: (e) => {
            if (this.calls.get(call) !== c) return;
            this.calls.delete(call);
            c.stream.close();
            this.sink.fail(call, wireError(e));
          },
        },
        { requireLeader },
      ),
    };
    this.calls.set(call, c);
  }
}
