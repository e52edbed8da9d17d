import type { Prng } from '../clock/prng.js';
import type { Process } from '../clock/process.js';
import type { Micros } from '../clock/time.js';
import type {
  ClientResponse,
  ClusterTransport,
  KeepAliveResponse,
  RangeRequest,
  RpcError,
  TxnCompare,
  TxnOp,
} from '../cluster/server/api.js';
import { NO_TRACE, type Trace } from '../trace/trace.js';
import { Balancer } from './balancer.js';
import { isRpcError } from './errors.js';
import type { Conn } from './conn.js';
import {
  DEFAULT_DIAL_KEEPALIVE_TIME_US,
  DEFAULT_DIAL_KEEPALIVE_TIMEOUT_US,
  DEFAULT_DIAL_TIMEOUT_US,
  DEFAULT_REQUEST_TIMEOUT_US,
  SEND_PASS_DRIFT_US,
  firstKeepAliveTimeout,
} from './constants.js';
import type { CallOptions, ClientCore } from './core.js';
import { invoke } from './invoke.js';
import type { KeepAliveChannel } from './keepalive-channel.js';
import { keepAliveOnce, type KeepAliveOnceOptions } from './keepalive-once.js';
import { LeaseKeepAlive, type KeepAliveOptions } from './lease-keepalive.js';
import { ClientTracer } from './tracer.js';
import { ClientWatch, type ClientWatchHandlers, type ClientWatchOptions } from './watch.js';

type Resp<K extends ClientResponse['op']> = Extract<ClientResponse, { readonly op: K }>;
export type LeaseGrantResponse = Resp<'LeaseGrant'>;
export type LeaseRevokeResponse = Resp<'LeaseRevoke'>;
export type LeaseTimeToLiveResponse = Resp<'LeaseTimeToLive'>;
export type LeaseLeasesResponse = Resp<'LeaseLeases'>;
export type RangeResponse = Resp<'Range'>;
export type PutResponse = Resp<'Put'>;
export type DeleteResponse = Resp<'DeleteRange'>;
export type TxnResponse = Resp<'Txn'>;
export type CompactResponse = Resp<'Compaction'>;
export type Callback<R> = (res: R | RpcError) => void;

export interface EtcdClientOptions {
  /** The client's name in traces (c1, writer-2). */
  readonly name: string;
  /** The process the client runs on: its timers and every callback. Pause it to model a GC pause. */
  readonly process: Process;
  readonly transport: ClusterTransport;
  /** Randomness (retry jitter). Give each client its own fork. */
  readonly prng: Prng;
  readonly trace?: Trace;
  /** Members to use, in failover order; defaults to `transport.members`. The first is pinned at start. */
  readonly endpoints?: readonly string[];
  /** clientv3 Config.DialTimeout (default 5 s). firstKeepAliveTimeout = DialTimeout + 1 s, or 5 s when 0. */
  readonly dialTimeoutUs?: Micros;
  /** Deadline of each unary call, retries included (default 7 s); it fails with DeadlineExceeded. */
  readonly requestTimeoutUs?: Micros;
  /** gRPC keepalive time (default 2 s, etcdctl's); 0 disables dead-member detection (clientv3's default). */
  readonly dialKeepAliveTimeUs?: Micros;
  /** gRPC keepalive timeout (default 6 s, etcdctl's). */
  readonly dialKeepAliveTimeoutUs?: Micros;
  /**
   * Default for `keepAlive(id, { requireLeader })`. false, because etcdctl (`context.TODO()`) and
   * concurrency.Session (`client.Ctx()`) pass contexts without WithRequireLeader.
   */
  readonly requireLeader?: boolean;
  /** How much later than 500 ms each keepalive send-loop pass starts (default SEND_PASS_DRIFT_US, measured). */
  readonly sendPassDriftUs?: Micros;
}

/**
 * A clientv3 client. Unary calls take a callback that runs exactly once, on the client's process,
 * with the response or an RpcError (the server's, or the client's own: errors.ts). Lease calls and Get
 * are retried on Unavailable (repeatable policy); Put, Delete and Txn are not.
 *
 * Endpoints: one member is pinned and every call and stream goes there; the client fails over to the
 * next endpoint on Unavailable, on a unary deadline, or when the pinned member goes silent
 * (balancer.ts, conn.ts).
 */
export class EtcdClient {
  readonly name: string;
  readonly process: Process;
  /** @internal shared with the client's parts */
  readonly core: ClientCore;
  private readonly lessor: LeaseKeepAlive;
  private readonly watches = new Set<ClientWatch>();
  private isClosed = false;

  constructor(opts: EtcdClientOptions) {
    this.name = opts.name;
    this.process = opts.process;
    const tracer = new ClientTracer(opts.trace ?? NO_TRACE, opts.name, opts.process);
    const endpoints = opts.endpoints ?? opts.transport.members;
    const dialTimeoutUs = opts.dialTimeoutUs ?? DEFAULT_DIAL_TIMEOUT_US;
    const self = this;
    const balancer = new Balancer(
      endpoints,
      {
        process: opts.process,
        transport: opts.transport,
        keepAliveTimeUs: opts.dialKeepAliveTimeUs ?? DEFAULT_DIAL_KEEPALIVE_TIME_US,
        keepAliveTimeoutUs: opts.dialKeepAliveTimeoutUs ?? DEFAULT_DIAL_KEEPALIVE_TIMEOUT_US,
        connDead: (conn: Conn) => balancer.fail(conn, 'keepalive-timeout'),
      },
      tracer,
    );
    this.core = {
      name: opts.name,
      process: opts.process,
      transport: opts.transport,
      prng: opts.prng,
      tracer,
      balancer,
      requestTimeoutUs: opts.requestTimeoutUs ?? DEFAULT_REQUEST_TIMEOUT_US,
      firstKeepAliveTimeoutUs: firstKeepAliveTimeout(dialTimeoutUs),
      requireLeader: opts.requireLeader ?? false,
      sendPassDriftUs: opts.sendPassDriftUs ?? SEND_PASS_DRIFT_US,
      get closed() {
        return self.isClosed;
      },
      inflight: new Set(),
    };
    this.lessor = new LeaseKeepAlive(this.core);
  }

  /** The member the client is pinned to. */
  get endpoint(): string {
    return this.core.balancer.endpoint;
  }

  get endpoints(): readonly string[] {
    return this.core.balancer.endpoints;
  }

  get failovers(): number {
    return this.core.balancer.failovers;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get firstKeepAliveTimeoutUs(): Micros {
    return this.core.firstKeepAliveTimeoutUs;
  }

  /** The keepalive machinery (read-only use: counters, `leases`, `streamEndpoint`). */
  get keepAlives(): LeaseKeepAlive {
    return this.lessor;
  }

  // --- Lease ----------------------------------------------------------------------------------------

  /** LeaseGrant with ID 0: the member allocates the ID. Retried on Unavailable (may leak a lease). */
  grant(ttl: number, cb: Callback<LeaseGrantResponse>, opts?: CallOptions): void {
    invoke<LeaseGrantResponse>(
      this.core,
      { op: 'LeaseGrant', ttl, id: 0n },
      'repeatable',
      (res) => {
        if (this.core.tracer.on && !isRpcError(res))
          this.core.tracer.emit('client-grant', res.id, { ttl: res.ttl, endpoint: res.header.memberId });
        cb(res);
      },
      opts,
    );
  }

  revoke(id: bigint, cb: Callback<LeaseRevokeResponse>, opts?: CallOptions): void {
    invoke<LeaseRevokeResponse>(this.core, { op: 'LeaseRevoke', id }, 'repeatable', cb, opts);
  }

  /** TTL −1 in the response means the lease was not found. */
  timeToLive(
    id: bigint,
    o: { readonly keys?: boolean },
    cb: Callback<LeaseTimeToLiveResponse>,
    opts?: CallOptions,
  ): void {
    invoke<LeaseTimeToLiveResponse>(
      this.core,
      { op: 'LeaseTimeToLive', id, keys: o.keys === true },
      'repeatable',
      cb,
      opts,
    );
  }

  leases(cb: Callback<LeaseLeasesResponse>, opts?: CallOptions): void {
    invoke<LeaseLeasesResponse>(this.core, { op: 'LeaseLeases' }, 'repeatable', cb, opts);
  }

  /** Starts (or joins) keeping `id` alive; see lease-keepalive.ts. */
  keepAlive(id: bigint, opts?: KeepAliveOptions): KeepAliveChannel {
    return this.lessor.keepAlive(id, opts);
  }

  keepAliveOnce(id: bigint, cb: Callback<KeepAliveResponse>, opts?: KeepAliveOnceOptions): void {
    keepAliveOnce(this.core, id, cb, opts);
  }

  unexpired(id: bigint): boolean {
    return this.lessor.unexpired(id);
  }

  // --- KV -------------------------------------------------------------------------------------------

  put(key: string, value: string, o: { readonly lease?: bigint }, cb: Callback<PutResponse>, opts?: CallOptions): void {
    invoke<PutResponse>(this.core, { op: 'Put', key, value, lease: o.lease ?? 0n }, 'nonRepeatable', cb, opts);
  }

  /** Range; `serializable` reads the pinned member's store without a linearizable read. */
  get(key: string, o: Omit<RangeRequest, 'op' | 'key'>, cb: Callback<RangeResponse>, opts?: CallOptions): void {
    invoke<RangeResponse>(this.core, { ...o, op: 'Range', key }, 'repeatable', cb, opts);
  }

  delete(key: string, cb: Callback<DeleteResponse>, opts?: CallOptions): void {
    invoke<DeleteResponse>(this.core, { op: 'DeleteRange', key }, 'nonRepeatable', cb, opts);
  }

  txn(
    t: {
      readonly compare: readonly TxnCompare[];
      readonly success: readonly TxnOp[];
      readonly failure: readonly TxnOp[];
    },
    cb: Callback<TxnResponse>,
    opts?: CallOptions,
  ): void {
    invoke<TxnResponse>(this.core, { op: 'Txn', ...t }, 'nonRepeatable', cb, opts);
  }

  /** Compact: drops the keyspace's history before `revision` (through raft, on every member). */
  compact(revision: number, cb: Callback<CompactResponse>, opts?: CallOptions): void {
    invoke<CompactResponse>(this.core, { op: 'Compaction', revision }, 'nonRepeatable', cb, opts);
  }

  /** A watch that survives failovers (watch.ts). */
  watch(key: string, opts: ClientWatchOptions, handlers: ClientWatchHandlers): ClientWatch {
    const w = new ClientWatch(this.core, key, opts, {
      onEvents: (e, h) => handlers.onEvents(e, h),
      onError: (e) => {
        this.watches.delete(w);
        handlers.onError?.(e);
      },
    });
    this.watches.add(w);
    return w;
  }

  /**
   * Client.Close: the keepalive loop exits (every channel closes, reason `client-closed`), watches end,
   * calls in flight fail with Canceled, the connection is torn down. Later calls fail with
   * ErrClientClosed.
   */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.core.tracer.on) this.core.tracer.emit('client-close');
    this.lessor.close();
    for (const w of this.watches) w.cancel();
    this.watches.clear();
    for (const c of [...this.core.inflight]) c();
    this.core.balancer.close();
  }
}
