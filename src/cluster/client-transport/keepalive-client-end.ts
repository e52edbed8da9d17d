import { closure, Packet, type PacketHandler, type WireLabel } from '../network/network.js';
import type { KeepAliveHandlers, KeepAliveResponse, KeepAliveStream } from '../server/api.js';
import { connectionRefused, type ClusterHost } from './host.js';
import { KeepAliveServerEnd } from './keepalive-server-end.js';

/**
 * The client's end of one LeaseKeepAlive stream: it sends lease IDs to the stream's server end on the
 * member and handles the responses that come back (each a packet, no closure per message).
 */
export class KeepAliveClientEnd implements KeepAliveStream, PacketHandler<KeepAliveResponse, undefined> {
  closed = false;
  private readonly serverEnd: KeepAliveServerEnd;

  constructor(
    private readonly host: ClusterHost,
    readonly client: string,
    readonly to: string,
    readonly handlers: KeepAliveHandlers,
    /** The stream's context carries `hasleader`. */
    requireLeader: boolean,
  ) {
    this.serverEnd = new KeepAliveServerEnd(host, this, requireLeader);
    const refused = (): void => void (!this.closed && handlers.onError(connectionRefused));
    host.network.send(
      client,
      to,
      'client',
      closure(() => this.serverEnd.open(), refused),
    );
  }

  send(id: bigint): void {
    this.host.network.send(this.client, this.to, 'client', new Packet(this.serverEnd, id, undefined));
  }

  close(): void {
    this.closed = true;
    this.host.network.send(
      this.client,
      this.to,
      'client',
      closure(() => this.serverEnd.cancel()),
    );
  }

  /** A response from the server end. */
  deliver(p: Packet<KeepAliveResponse, undefined>): void {
    if (!this.closed) this.handlers.onResponse(p.arg);
  }

  /** A response is not answered when it meets a dead client. */
  refused(): void {}

  label(p: Packet<KeepAliveResponse, undefined>): WireLabel {
    return { kind: 'keepalive-answer', lease: p.arg.id };
  }
}
