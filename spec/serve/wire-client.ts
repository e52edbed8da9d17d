// A bare gRPC client on serve's own protos, for the serve specs: every call to one endpoint, with the
// metadata, half-close and cancel a test needs, and the status as it arrived.
import * as grpc from '@grpc/grpc-js';
import { etcdPackage } from '../../src/serve/grpc-server.js';

type Json = Record<string, unknown>;
type Ctor = new (address: string, creds: grpc.ChannelCredentials) => grpc.Client;

const pkg = etcdPackage() as unknown as Record<string, Ctor>;

export interface Status {
  readonly code: number;
  readonly details: string;
}

export const b64 = (s: string): string => Buffer.from(s).toString('base64');

export class WireClient {
  private readonly clients = new Map<string, grpc.Client>();

  constructor(readonly address: string) {}

  /** The service's gRPC client, for calls by path. */
  client(service: string): grpc.Client {
    let c = this.clients.get(service);
    if (c === undefined) {
      c = new pkg[service]!(this.address, grpc.credentials.createInsecure());
      this.clients.set(service, c);
    }
    return c;
  }

  /** A unary call: its response, or its error status. */
  unary(service: string, method: string, req: Json, timeoutMs = 20_000): Promise<Json | Status> {
    const c = this.client(service) as unknown as Record<
      string,
      (r: Json, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: Json) => void) => void
    >;
    return new Promise((done) =>
      c[method]!.call(this.client(service), req, { deadline: Date.now() + timeoutMs }, (e, r) =>
        done(e ? { code: e.code, details: e.details } : r),
      ),
    );
  }

  /** A bidirectional stream: what it received, and a promise of how it ended. */
  stream(service: string, method: string, hasLeader = false): Stream {
    const md = new grpc.Metadata();
    if (hasLeader) md.set('hasleader', 'true');
    const c = this.client(service) as unknown as Record<
      string,
      (m: grpc.Metadata) => grpc.ClientDuplexStream<Json, Json>
    >;
    return new Stream(c[method]!.call(this.client(service), md));
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
  }
}

export class Stream {
  readonly received: Json[] = [];
  readonly ended: Promise<Status>;
  private waiters: (() => void)[] = [];

  constructor(readonly call: grpc.ClientDuplexStream<Json, Json>) {
    call.on('data', (m: Json) => {
      this.received.push(m);
      for (const w of this.waiters.splice(0)) w();
    });
    this.ended = new Promise((done) => {
      call.on('status', (s: grpc.StatusObject) => done({ code: s.code, details: s.details }));
      call.on('error', () => undefined);
    });
  }

  send(m: Json): void {
    this.call.write(m);
  }

  /** Resolves once `n` messages have arrived. */
  async waitFor(n: number): Promise<Json[]> {
    while (this.received.length < n) await new Promise<void>((r) => this.waiters.push(r));
    return this.received.slice(0, n);
  }
}

export const isStatus = (x: Json | Status): x is Status => 'code' in x && 'details' in x && !('header' in x);
