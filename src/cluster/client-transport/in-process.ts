import { closure, Packet, type PacketHandler } from '../network/network.js';
import type {
  ClientRequest,
  ClientResponse,
  ClusterTransport,
  KeepAliveHandlers,
  KeepAliveStream,
  RpcError,
  StreamOptions,
  WatchHandlers,
  WatchRequestStream,
  WatchStream,
  WatchStreamHandlers,
  WatchStreamTransport,
} from '../server/api.js';
import { serveUnary } from '../server/client-api.js';
import type { EtcdServer, ServedStream } from '../server/etcd-server.js';
import { ErrNoLeader, toRpcError } from '../server/errors.js';
import { ServerWatchStream } from '../server/watch-stream.js';
import { connectionRefused, connectionReset, type ClusterHost } from './host.js';
import { KeepAliveClientEnd } from './keepalive-client-end.js';

type UnaryCallback = (res: ClientResponse | RpcError) => void;

/** A unary call's answer (or the refusal) reaches the client: the callback riding beside it gets it. */
const UNARY_ANSWERS: PacketHandler<ClientResponse | RpcError, UnaryCallback> = {
  deliver: (p) => p.extra(p.arg),
  // An answer to a dead client is lost.
  refused: () => {},
  label: (p) => {
    const m = p.arg as { readonly op?: string; readonly id?: unknown };
    return { kind: 'answer', carries: [m.op ?? 'error'], lease: leaseOf(m) };
  },
};

function leaseOf(m: { readonly id?: unknown }): bigint | undefined {
  return typeof m.id === 'bigint' ? m.id : undefined;
}

/** The client side of the gRPC connections: requests and stream messages as 'client' traffic. */
export class InProcessTransport implements ClusterTransport, WatchStreamTransport {
  constructor(
    private readonly cluster: ClusterHost,
    private readonly client: string,
  ) {}

  get members(): readonly string[] {
    return this.cluster.names;
  }

  /** Sends to a member; if its process is dead the connection is refused and `refused` runs here. */
  private toMember(to: string, fn: (s: EtcdServer) => void, refused?: () => void): void {
    const deliver = (): void => {
      const s = this.cluster.server(to);
      if (s !== undefined) fn(s);
    };
    this.cluster.network.send(this.client, to, 'client', closure(deliver, refused));
  }

  private toClient(from: string, fn: () => void): void {
    this.cluster.network.send(from, this.client, 'client', closure(fn));
  }

  unary(to: string, req: ClientRequest, cb: UnaryCallback): void {
    this.cluster.network.send(this.client, to, 'client', new Packet(this.unaryRequests, req, cb));
  }

  /**
   * A unary call is a request packet (the request, and the caller's callback riding beside it); its
   * response, or the refusal of a dead member, travels back the way it came as an answer packet.
   * Plain objects, not this class: they share the map of the network's other literal handlers, so the
   * handler call in `Packet.run` sees fewer shapes.
   */
  private readonly unaryRequests: PacketHandler<ClientRequest, UnaryCallback> = {
    deliver: (p) => {
      const s = this.cluster.server(p.to);
      if (s !== undefined) serveUnary(s, p.arg, (res) => p.answer(new Packet(UNARY_ANSWERS, res, p.extra)));
    },
    refused: (p) => p.answer(new Packet(UNARY_ANSWERS, connectionRefused, p.extra)),
    label: (p) => ({ kind: 'request', carries: [p.arg.op], lease: leaseOf(p.arg as { readonly id?: unknown }) }),
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
    return new KeepAliveClientEnd(this.cluster, this.client, to, handlers, opts?.requireLeader === true);
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
