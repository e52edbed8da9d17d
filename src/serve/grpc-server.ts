/**
 * One member's gRPC server (on an internal loopback port behind its Relay): each call becomes inputs for the
 * session, and the session's answers come back through `GrpcSink` to the call they belong to.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Input, StreamMethod, UnaryMethod } from './inputs.js';
import type { Sink } from './session.js';
import type { Json, WireError } from './wire.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/**
 * Beside this module in the source tree; in the packed CLI bundle (dist/bin) the build copies them to serve/;
 * compiled by tsc (the bench's .bench-dist/src/serve), in the source tree it mirrors.
 */
const PROTO_DIR =
  [HERE, resolve(HERE, 'serve'), resolve(HERE, '../../../src/serve')].find((d) =>
    existsSync(resolve(d, 'rpc.proto')),
  ) ?? HERE;

type ServiceDefs = Record<'KV' | 'Watch' | 'Lease' | 'Cluster' | 'Maintenance' | 'Auth', grpc.ServiceDefinition>;
let defs: ServiceDefs | undefined;

/**
 * serve's etcdserverpb package as plain JSON both ways: int64 as decimal strings, bytes as base64, enums by
 * name, oneofs named. Its services' client classes also serve the serve specs and bench as a wire client.
 */
export function etcdPackage(): grpc.GrpcObject {
  const def = protoLoader.loadSync('rpc.proto', {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: String,
    bytes: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(def).etcdserverpb as grpc.GrpcObject;
}

function services(): ServiceDefs {
  if (defs === undefined) {
    const pkg = etcdPackage() as unknown as Record<string, { service: grpc.ServiceDefinition }>;
    defs = {
      KV: pkg.KV!.service,
      Watch: pkg.Watch!.service,
      Lease: pkg.Lease!.service,
      Cluster: pkg.Cluster!.service,
      Maintenance: pkg.Maintenance!.service,
      Auth: pkg.Auth!.service,
    };
  }
  return defs;
}

/** An input as the server hands it over; the serve loop stamps its virtual instant. */
export type Arrival = Input extends infer I ? (I extends Input ? Omit<I, 't'> : never) : never;

type Live =
  | { readonly kind: 'unary'; readonly cb: grpc.sendUnaryData<Json> }
  | { readonly kind: 'stream'; readonly call: grpc.ServerDuplexStream<Json, Json> };

/** The gRPC calls in flight, for the session's answers. Shared by every member's server. */
export class GrpcSink implements Sink {
  private readonly live = new Map<number, Live>();
  private nextCall = 1;
  private nextConn = 1;
  private readonly conns = new Map<string, number>();

  newCall(l: Live): number {
    const id = this.nextCall++;
    this.live.set(id, l);
    return id;
  }

  forget(call: number): void {
    this.live.delete(call);
  }

  /** The connection number of a peer on a member; `fresh` when it is seen for the first time. */
  conn(member: string, peer: string): { conn: number; fresh: boolean } {
    const key = `${member} ${peer}`;
    const known = this.conns.get(key);
    if (known !== undefined) return { conn: known, fresh: false };
    const conn = this.nextConn++;
    this.conns.set(key, conn);
    return { conn, fresh: true };
  }

  reply(call: number, res: Json): void {
    const l = this.live.get(call);
    this.live.delete(call);
    if (l?.kind === 'unary') l.cb(null, res);
  }

  fail(call: number, e: WireError): void {
    const l = this.live.get(call);
    this.live.delete(call);
    if (l?.kind === 'unary') l.cb({ code: e.code, details: e.message });
    else if (l?.kind === 'stream') l.call.emit('error', { code: e.code, details: e.message });
  }

  write(call: number, msg: Json): void {
    const l = this.live.get(call);
    if (l?.kind === 'stream') l.call.write(msg);
  }

  end(call: number): void {
    const l = this.live.get(call);
    this.live.delete(call);
    if (l?.kind === 'stream') l.call.end();
  }
}

const hasLeader = (md: grpc.Metadata): boolean => md.get('hasleader').some((v) => String(v) === 'true');

/** Starts `member`'s gRPC server on 127.0.0.1 (a free port); resolves to the server and its port. */
export async function startMemberServer(
  member: string,
  sink: GrpcSink,
  enter: (a: Arrival) => void,
): Promise<{ server: grpc.Server; port: number }> {
  const s = services();
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 2 * 1024 * 1024 + 4096 });
  const connOf = (peer: string): number => {
    const { conn, fresh } = sink.conn(member, peer);
    if (fresh) enter({ kind: 'connect', conn, member });
    return conn;
  };
  const unary =
    (method: UnaryMethod): grpc.handleUnaryCall<Json, Json> =>
    (call, cb) => {
      const conn = connOf(call.getPeer());
      const id = sink.newCall({ kind: 'unary', cb });
      call.on('cancelled', () => {
        sink.forget(id);
        enter({ kind: 'cancel', call: id });
      });
      enter({ kind: 'unary', conn, call: id, method, req: call.request });
    };
  const stream =
    (method: StreamMethod): grpc.handleBidiStreamingCall<Json, Json> =>
    (call) => {
      const conn = connOf(call.getPeer());
      const id = sink.newCall({ kind: 'stream', call });
      let over = false;
      const cancel = (): void => {
        if (over) return;
        over = true;
        sink.forget(id);
        enter({ kind: 'cancel', call: id });
      };
      call.on('cancelled', cancel);
      call.on('error', () => undefined);
      enter({ kind: 'open', conn, call: id, method, requireLeader: hasLeader(call.metadata) });
      call.on('data', (req: Json) => enter({ kind: 'send', call: id, req }));
      call.on('end', () => enter({ kind: 'half-close', call: id }));
    };
  const unaries = (names: readonly UnaryMethod[]): grpc.UntypedServiceImplementation =>
    Object.fromEntries(names.map((n) => [n, unary(n)]));
  server.addService(s.KV, unaries(['Range', 'Put', 'DeleteRange', 'Txn', 'Compact']));
  server.addService(s.Lease, {
    ...unaries(['LeaseGrant', 'LeaseRevoke', 'LeaseTimeToLive', 'LeaseLeases']),
    LeaseKeepAlive: stream('LeaseKeepAlive'),
  });
  server.addService(s.Watch, { Watch: stream('Watch') });
  server.addService(s.Cluster, unaries(['MemberList']));
  server.addService(s.Maintenance, unaries(['Status', 'Alarm', 'Defragment', 'HashKV', 'MoveLeader']));
  server.addService(s.Auth, unaries(['Authenticate']));
  const port = await new Promise<number>((done, fail) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : done(p))),
  );
  return { server, port };
}
