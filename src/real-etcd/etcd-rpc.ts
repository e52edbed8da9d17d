/**
 * A thin gRPC client for one etcd member, on @grpc/grpc-js with the protos `serve` answers (src/serve/rpc.proto:
 * etcd's names and numbers, a superset of what this client calls).
 * Chosen over a higher-level library because the diff needs what etcdctl does and nothing more: each
 * request goes to exactly the member named, with etcdctl's 5 s command timeout, and no hidden retries,
 * circuit breakers or host shuffling that would move a request in time or to another member.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TxnRequest } from '../cluster/server/api.js';
import type { TxnOpAnswer } from '../scenario/replay/answers.js';
import { rawTxn, txnAnswers } from './etcd-rpc-txn.js';

/** etcdctl's default --command-timeout. */
export const COMMAND_TIMEOUT_MS = 5_000;

const PROTO = 'rpc.proto';
const HERE = dirname(fileURLToPath(import.meta.url));
/** serve's folder in the source tree; in the packed CLI bundle (dist/bin) the build copies it to serve/; compiled
 * by tsc (the bench's .bench-dist/ mirror of the tree, where tsc copies no .proto), in the source tree. */
const PROTO_DIRS = [resolve(HERE, '../serve'), resolve(HERE, 'serve'), resolve(HERE, '../../../src/serve')];
/** Reconnect quickly after a member restarts (grpc-js would otherwise back off for up to 2 minutes). */
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 500,
};

type Ctor = new (address: string, creds: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => grpc.Client;
interface Services {
  readonly KV: Ctor;
  readonly Lease: Ctor;
  readonly Watch: Ctor;
  readonly Maintenance: Ctor;
}
let loaded: Services | undefined;

function services(): Services {
  if (loaded === undefined) {
    // int64 as decimal strings (lease IDs exceed 2^53), enums by name, absent fields as proto3 defaults.
    const def = protoLoader.loadSync(PROTO, {
      includeDirs: PROTO_DIRS,
      keepCase: true,
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    });
    const pkg = grpc.loadPackageDefinition(def).etcdserverpb as unknown as Services;
    loaded = pkg;
  }
  return loaded;
}

type Callback = (err: grpc.ServiceError | null, res: unknown) => void;
type Unary = (req: object, opts: grpc.CallOptions, cb: Callback) => grpc.ClientUnaryCall;

/** A failed request: the gRPC status and etcd's message ("etcdserver: requested lease not found"). */
export class RpcFailure extends Error {
  constructor(
    readonly op: string,
    readonly code: number,
    readonly details: string,
  ) {
    super(`${op}: ${details || grpc.status[code]}`);
  }
}

export interface RpcKeyValue {
  readonly key: string;
  readonly value: string;
  readonly modRevision: number;
  readonly createRevision: number;
  readonly version: number;
  readonly lease: bigint;
}

export interface RpcWatchEvent {
  readonly type: 'PUT' | 'DELETE';
  readonly key: string;
  readonly modRevision: number;
}

export interface RpcWatchHandlers {
  /** etcd has registered the watch: events from now on arrive as they happen. */
  readonly onCreated: () => void;
  readonly onEvents: (events: RpcWatchEvent[]) => void;
  /** The stream ended (member crashed, watch canceled). */
  readonly onEnd: (why: string) => void;
}

interface RawHeader {
  readonly revision: string;
  readonly member_id: string;
}
interface RawKv {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly mod_revision: string;
  readonly create_revision: string;
  readonly version: string;
  readonly lease: string;
}

const headerRevision = (r: unknown): number => Number((r as { header: RawHeader }).header.revision);
const toKv = (kv: RawKv): RpcKeyValue => ({
  key: kv.key.toString(),
  value: kv.value.toString(),
  modRevision: Number(kv.mod_revision),
  createRevision: Number(kv.create_revision),
  version: Number(kv.version),
  lease: BigInt(kv.lease),
});
/** Every key: from "\0" with range_end "\0" (etcdctl's --from-key of ""). */
const ALL_KEYS = { key: Buffer.from([0]), range_end: Buffer.from([0]) };

/** Opens a bidirectional stream method of a loaded service client. */
function duplex(client: grpc.Client, method: string, opts: grpc.CallOptions): grpc.ClientDuplexStream<object, unknown> {
  const open = (client as unknown as Record<string, (o: grpc.CallOptions) => grpc.ClientDuplexStream<object, unknown>>)[
    method
  ]!;
  return open.call(client, opts);
}

export class EtcdRpc {
  private readonly kv: grpc.Client;
  private readonly lease: grpc.Client;
  private readonly watch: grpc.Client;
  private readonly maintenance: grpc.Client;
  private readonly channel: grpc.Channel;

  constructor(readonly endpoint: string) {
    const s = services();
    const creds = grpc.credentials.createInsecure();
    // One HTTP/2 connection for every service, as clientv3 has: a request on a service not used before
    // then pays no connection set-up (which would show as a late first grant).
    this.channel = new grpc.Channel(endpoint, creds, CHANNEL_OPTIONS);
    const shared = { channelOverride: this.channel };
    this.kv = new s.KV(endpoint, creds, shared);
    this.lease = new s.Lease(endpoint, creds, shared);
    this.watch = new s.Watch(endpoint, creds, shared);
    this.maintenance = new s.Maintenance(endpoint, creds, shared);
  }

  private call(client: grpc.Client, method: string, req: object, timeoutMs = COMMAND_TIMEOUT_MS): Promise<unknown> {
    const fn = (client as unknown as Record<string, Unary>)[method]!.bind(client);
    return new Promise((resolve, reject) => {
      fn(req, { deadline: Date.now() + timeoutMs }, (err, res) => {
        if (err !== null) reject(new RpcFailure(method, err.code, err.details));
        else resolve(res);
      });
    });
  }

  async range(
    key: string,
    serializable: boolean,
    timeoutMs?: number,
  ): Promise<{ revision: number; kv: RpcKeyValue | undefined }> {
    const r = (await this.call(this.kv, 'Range', { key: Buffer.from(key), serializable }, timeoutMs)) as {
      kvs: RawKv[];
    };
    return { revision: headerRevision(r), kv: r.kvs[0] === undefined ? undefined : toKv(r.kvs[0]) };
  }

  async put(key: string, value: string, lease: bigint): Promise<number> {
    return headerRevision(
      await this.call(this.kv, 'Put', { key: Buffer.from(key), value: Buffer.from(value), lease: lease.toString() }),
    );
  }

  async deleteKey(key: string): Promise<{ revision: number; deleted: number }> {
    const r = (await this.call(this.kv, 'DeleteRange', { key: Buffer.from(key) })) as { deleted: string };
    return { revision: headerRevision(r), deleted: Number(r.deleted) };
  }

  /** One Txn over gRPC (etcdctl 3.4.23's txn cannot write a lease compare). */
  async txn(t: TxnRequest): Promise<{ revision: number; succeeded: boolean; responses: TxnOpAnswer[] }> {
    const r = (await this.call(this.kv, 'Txn', rawTxn(t))) as { succeeded: boolean; responses: [] };
    return { revision: headerRevision(r), succeeded: r.succeeded, responses: txnAnswers(r) };
  }

  /** Compact at `revision`; the header revision of the answer. */
  async compact(revision: number): Promise<number> {
    return headerRevision(await this.call(this.kv, 'Compact', { revision: String(revision) }));
  }

  async leaseGrant(ttlSeconds: number, id: bigint): Promise<{ id: bigint; ttl: number }> {
    const r = (await this.call(this.lease, 'LeaseGrant', { TTL: String(ttlSeconds), ID: id.toString() })) as {
      ID: string;
      TTL: string;
      error: string;
    };
    if (r.error !== '') throw new RpcFailure('LeaseGrant', grpc.status.UNKNOWN, r.error);
    return { id: BigInt(r.ID), ttl: Number(r.TTL) };
  }

  async leaseRevoke(id: bigint): Promise<number> {
    return headerRevision(await this.call(this.lease, 'LeaseRevoke', { ID: id.toString() }));
  }

  /** TTL -1 with grantedTTL 0 is etcd's "not found" answer; a found lease always has grantedTTL > 0. */
  async leaseTimeToLive(
    id: bigint,
    keys: boolean,
    timeoutMs?: number,
  ): Promise<{ ttl: number; grantedTtl: number; keys: string[]; revision: number }> {
    const r = (await this.call(this.lease, 'LeaseTimeToLive', { ID: id.toString(), keys }, timeoutMs)) as {
      TTL: string;
      grantedTTL: string;
      keys: Buffer[];
    };
    return {
      ttl: Number(r.TTL),
      grantedTtl: Number(r.grantedTTL),
      keys: r.keys.map((k) => k.toString()),
      revision: headerRevision(r),
    };
  }

  async leaseLeases(timeoutMs?: number): Promise<bigint[]> {
    const r = (await this.call(this.lease, 'LeaseLeases', {}, timeoutMs)) as { leases: Array<{ ID: string }> };
    return r.leases.map((l) => BigInt(l.ID));
  }

  async status(timeoutMs: number): Promise<{ memberId: bigint; leader: bigint; raftTerm: number; version: string }> {
    const r = (await this.call(this.maintenance, 'Status', {}, timeoutMs)) as {
      header: RawHeader;
      leader: string;
      raftTerm: string;
      version: string;
    };
    return {
      memberId: BigInt(r.header.member_id),
      leader: BigInt(r.leader),
      raftTerm: Number(r.raftTerm),
      version: r.version,
    };
  }

  /**
   * One renew on a fresh LeaseKeepAlive stream (clientv3's KeepAliveOnce); resolves with the TTL. No
   * deadline: `etcdctl lease keep-alive --once` calls KeepAliveOnce with context.TODO()
   * (etcdctl/ctlv3/command/lease_command.go@v3.4.23), so only the server's request timeout ends it.
   */
  keepAliveOnce(id: bigint): Promise<number> {
    return new Promise((resolve, reject) => {
      const stream = duplex(this.lease, 'LeaseKeepAlive', {});
      let done = false;
      stream.on('data', (r: { TTL: string }) => {
        done = true;
        resolve(Number(r.TTL));
        stream.cancel();
      });
      stream.on('error', (e: grpc.ServiceError) => {
        if (!done) reject(new RpcFailure('LeaseKeepAlive', e.code, e.details));
      });
      stream.write({ ID: id.toString() });
    });
  }

  /** Watches every key from `startRevision`. */
  watchAll(startRevision: number, on: RpcWatchHandlers): () => void {
    const { onCreated, onEvents, onEnd } = on;
    const stream = duplex(this.watch, 'Watch', {});
    stream.on('data', (raw: unknown) => {
      const r = raw as {
        created: boolean;
        canceled: boolean;
        cancel_reason: string;
        events: Array<{ type: 'PUT' | 'DELETE'; kv: RawKv }>;
      };
      if (r.created) onCreated();
      if (r.canceled) return onEnd(`watch canceled: ${r.cancel_reason}`);
      if (r.events.length > 0)
        onEvents(
          r.events.map((e) => ({ type: e.type, key: e.kv.key.toString(), modRevision: Number(e.kv.mod_revision) })),
        );
    });
    stream.on('error', (e: grpc.ServiceError) => onEnd(e.details || grpc.status[e.code] || 'error'));
    stream.on('end', () => onEnd('stream ended'));
    stream.write({ create_request: { ...ALL_KEYS, start_revision: String(startRevision) } });
    return () => stream.cancel();
  }

  close(): void {
    this.channel.close();
  }
}
