import { closure, Packet, type PacketHandler, type WireLabel } from '../network/network.js';
import type { RpcError } from '../server/api.js';
import type { EtcdServer } from '../server/etcd-server.js';
import { KeepAliveServerStream } from '../server/keepalive-stream.js';
import type { ClusterHost } from './host.js';
import type { KeepAliveClientEnd } from './keepalive-client-end.js';

/**
 * The member's end of one LeaseKeepAlive stream: it handles the lease IDs the client end sends and hands
 * them to the member's KeepAliveServerStream once the stream's open has arrived; requests that come first
 * wait for it.
 */
export class KeepAliveServerEnd implements PacketHandler<bigint, undefined> {
  private stream: KeepAliveServerStream | undefined;
  /** The member the stream was opened on. */
  private member: EtcdServer | undefined;
  private readonly pending: bigint[] = [];

  constructor(
    private readonly host: ClusterHost,
    private readonly client: KeepAliveClientEnd,
    private readonly requireLeader: boolean,
  ) {}

  /** The stream's open has reached the member. */
  open(): void {
    const s = this.host.server(this.client.to);
    if (s === undefined || this.client.closed) return;
    this.member = s;
    const { network } = this.host;
    const end = this.client;
    const stream = new KeepAliveServerStream(
      s,
      (r) => network.send(end.to, end.client, 'client', new Packet(end, r, undefined)),
      (e: RpcError) =>
        network.send(
          end.to,
          end.client,
          'client',
          closure(() => this.failed(e)),
        ),
      this.requireLeader,
    );
    this.stream = stream;
    for (const id of this.pending.splice(0)) stream.recv(id);
  }

  /** The stream's error has reached the client. */
  private failed(e: RpcError): void {
    if (!this.client.closed) this.client.handlers.onError(e);
  }

  /** The client's cancel has reached the member. */
  cancel(): void {
    if (this.host.server(this.client.to) !== undefined) this.stream?.cancel();
  }

  /** A request (a lease ID) from the client end. */
  deliver(p: Packet<bigint, undefined>): void {
    const m = this.member;
    // A request reaches only a running member. While the one the stream was opened on has not stopped,
    // it is that member's current server (a new one boots only after a crash stopped the old), so the
    // lookup is needed only otherwise.
    if ((m === undefined || m.stopped) && this.host.server(this.client.to) === undefined) return;
    if (this.stream === undefined) this.pending.push(p.arg);
    else this.stream.recv(p.arg);
  }

  /** A request is not answered when it meets a dead member. */
  refused(): void {}

  label(p: Packet<bigint, undefined>): WireLabel {
    return { kind: 'keepalive', lease: p.arg };
  }
}
