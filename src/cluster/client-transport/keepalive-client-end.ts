import { Packet, type PacketHandler, type WireLabel } from '../network/network.js';
import type { KeepAliveHandlers, KeepAliveResponse, KeepAliveStream } from '../server/api.js';
import { connectionRefused, type ClusterHost } from './host.js';
import { KeepAliveServerEnd } from './keepalive-server-end.js';

/**
 * The client's end of one LeaseKeepAlive stream: it sends lease IDs to the stream's server end on the
 * member and handles the responses that come back (each a packet, no closure per message).
 */
export class KeepAliveClientEnd implements KeepAliveStream, PacketHandler {
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
    host.network.send(
      client,
      to,
      'client',
      () => this.serverEnd.open(),
      () => !this.closed && handlers.onError(connectionRefused),
    );
  }

  send(id: bigint): void {
    this.host.network.transmit(this.client, this.to, 'client', new Packet(this.serverEnd, 0, id));
  }

  close(): void {
    this.closed = true;
    this.host.network.send(this.client, this.to, 'client', () => this.serverEnd.cancel());
  }

  /** A response from the server end. */
  deliver(p: Packet): void {
    if (!this.closed) this.handlers.onResponse(p.arg as KeepAliveResponse);
  }

  /** A response is not answered when it meets a dead client. */
  refused(): void {}

  label(p: Packet): WireLabel {
    return { kind: 'keepalive-answer', lease: (p.arg as KeepAliveResponse).id };
  }
}
