import type { Process } from '../clock/process.js';
import type { Timer } from '../clock/scheduler.js';
import type { Micros } from '../clock/time.js';
import type {
  ClientRequest,
  ClientResponse,
  ClusterTransport,
  KeepAliveHandlers,
  KeepAliveStream,
  RpcError,
  StreamOptions,
  WatchHandlers,
  WatchStream,
} from '../cluster/server/api.js';
import { ErrConnClosing } from './errors.js';
import { SentTimes } from './sent-times.js';

/** What a connection needs from its client. */
export interface ConnHost {
  readonly process: Process;
  readonly transport: ClusterTransport;
  /** etcdctl `--keepalive-time`; 0 turns liveness detection off (clientv3's default). */
  readonly keepAliveTimeUs: Micros;
  /** etcdctl `--keepalive-timeout`. */
  readonly keepAliveTimeoutUs: Micros;
  /** The connection decided its member is gone. */
  connDead(conn: Conn): void;
}

/** A request sent on this connection and not answered yet. */
interface Pending {
  readonly sentAt: Micros;
}

/** Something open on the connection that must end when the connection is torn down. */
interface Attached {
  onKilled(): void;
}

/**
 * The client's gRPC connection to one member: every RPC and stream to that member goes through it, so
 * it can (1) end all of them at once with `ErrConnClosing` when the client abandons the member, and
 * (2) notice that the member has gone silent.
 *
 * [SIM-CHOICE] Liveness. gRPC's HTTP/2 keepalive pings the member after `keepAliveTime` without
 * hearing from it and closes the connection when the ping is not acknowledged within
 * `keepAliveTimeout`. The transport has no ping frame, so the client's own traffic stands in for it: a
 * request left unanswered for `keepAliveTime` is evidence that a ping sent then would not have been
 * acknowledged either, and the connection is declared dead at
 * `max(lastHeard + keepAliveTime + keepAliveTimeout, oldestUnanswered.sentAt + keepAliveTime)` — the
 * instant gRPC would have closed it when the member really is gone. Difference from real pings: a
 * member that is alive but holds a request (a renew blocked behind an expired lease, docs/lessor.md §9.7) for longer
 * than that, and says nothing else, is abandoned too; and an idle watch alone never detects anything.
 */
export class Conn {
  private closedFlag = false;
  private lastHeard: Micros;
  /** Unanswered unary requests, in the order sent. */
  private readonly pending = new Set<Pending>();
  /** Unanswered sends of each open keepalive stream. */
  private readonly streams = new Set<SentTimes>();
  private readonly attached = new Set<Attached>();
  private watchdog: Timer | undefined;

  constructor(
    readonly endpoint: string,
    /** 1, 2, 3 … in the order the client opened connections; shows in traces. */
    readonly seq: number,
    private readonly host: ConnHost,
  ) {
    this.lastHeard = host.process.now();
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Sends one unary request. Returns an abandon function (the caller's deadline passed). */
  unary(req: ClientRequest, cb: (res: ClientResponse | RpcError) => void): () => void {
    if (this.closedFlag) {
      this.later(() => cb(ErrConnClosing));
      return () => {};
    }
    const p = this.begin();
    let done = false;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      this.pending.delete(p);
      this.attached.delete(a);
      return true;
    };
    const a: Attached = { onKilled: () => finish() && this.later(() => cb(ErrConnClosing)) };
    this.attached.add(a);
    this.host.transport.unary(this.endpoint, req, (res) => {
      if (!finish()) return;
      this.heard();
      cb(res);
    });
    return () => void finish();
  }

  /**
   * Opens a LeaseKeepAlive stream. The server answers a stream's requests one by one, in order, so
   * each response settles the oldest unanswered send.
   */
  openKeepAlive(handlers: KeepAliveHandlers, opts?: StreamOptions): KeepAliveStream {
    if (this.closedFlag) {
      this.later(() => handlers.onError(ErrConnClosing));
      return { send: () => {}, close: () => {} };
    }
    const sent = new SentTimes();
    this.streams.add(sent);
    let ended = false;
    const end = (): boolean => {
      if (ended) return false;
      ended = true;
      this.streams.delete(sent);
      sent.clear();
      this.attached.delete(a);
      return true;
    };
    const a: Attached = {
      onKilled: () => {
        if (!end()) return;
        stream.close();
        this.later(() => handlers.onError(ErrConnClosing));
      },
    };
    this.attached.add(a);
    const stream = this.host.transport.openKeepAlive(
      this.endpoint,
      {
        onResponse: (r) => {
          if (ended) return;
          this.heard();
          sent.shift();
          handlers.onResponse(r);
        },
        onError: (e) => {
          if (!end()) return;
          this.heard();
          handlers.onError(e);
        },
      },
      opts,
    );
    return {
      send: (id) => {
        if (ended) return;
        sent.push(this.host.process.now());
        this.arm();
        stream.send(id);
      },
      close: () => {
        if (end()) stream.close();
      },
    };
  }

  watch(
    key: string,
    opts: { prefix?: boolean; fromRevision?: number; requireLeader?: boolean },
    handlers: WatchHandlers,
  ): WatchStream {
    if (this.closedFlag) {
      this.later(() => handlers.onError(ErrConnClosing));
      return { close: () => {} };
    }
    let ended = false;
    const end = (): boolean => {
      if (ended) return false;
      ended = true;
      this.attached.delete(a);
      return true;
    };
    const a: Attached = {
      onKilled: () => {
        if (!end()) return;
        ws.close();
        this.later(() => handlers.onError(ErrConnClosing));
      },
    };
    this.attached.add(a);
    const ws = this.host.transport.watch(this.endpoint, key, opts, {
      onEvents: (events, header) => {
        if (ended) return;
        this.heard();
        handlers.onEvents(events, header);
      },
      onError: (e) => {
        if (!end()) return;
        this.heard();
        handlers.onError(e);
      },
    });
    return { close: () => void (end() && ws.close()) };
  }

  /** Tears the connection down: everything open on it ends with `ErrConnClosing` (delivered async). */
  kill(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.watchdog?.cancel();
    this.watchdog = undefined;
    const attached = [...this.attached];
    this.attached.clear();
    this.pending.clear();
    this.streams.clear();
    for (const a of attached) a.onKilled();
  }

  private later(fn: () => void): true {
    this.host.process.after(0, fn);
    return true;
  }

  private begin(): Pending {
    const p: Pending = { sentAt: this.host.process.now() };
    this.pending.add(p);
    this.arm();
    return p;
  }

  private heard(): void {
    this.lastHeard = this.host.process.now();
  }

  private deadAt(): Micros | undefined {
    const t = this.host.keepAliveTimeUs;
    if (t <= 0 || this.closedFlag) return undefined;
    // A Set iterates in insertion order: its first entry is the oldest unanswered unary request.
    let oldest = this.pending.size > 0 ? (this.pending.values().next().value as Pending).sentAt : Infinity;
    for (const s of this.streams) if (s.size > 0 && s.oldest < oldest) oldest = s.oldest;
    if (oldest === Infinity) return undefined;
    return Math.max(this.lastHeard + t + this.host.keepAliveTimeoutUs, oldest + t);
  }

  private arm(): void {
    if (this.watchdog !== undefined) return;
    const at = this.deadAt();
    if (at === undefined) return;
    this.watchdog = this.host.process.after(Math.max(0, at - this.host.process.now()), () => this.check());
  }

  private check(): void {
    this.watchdog = undefined;
    const at = this.deadAt();
    if (at === undefined) return;
    if (this.host.process.now() >= at) this.host.connDead(this);
    else this.arm();
  }
}
