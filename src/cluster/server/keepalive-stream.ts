import { ErrLeaseNotFound } from '../../lessor/errors.js';
import type { KeepAliveResponse, ResponseHeader, RpcError } from './api.js';
import { ErrNoLeader, toRpcError } from './errors.js';
import type { EtcdServer, ServedStream } from './etcd-server.js';
import { leaseRenew, type LeaseRenewResult } from './lease-ops.js';

const unavailable: RpcError = { code: 'Unavailable', name: 'ErrConnectionReset', message: 'transport is closing' };

/**
 * The server half of one LeaseKeepAlive stream (v3rpc/lease.go). Requests are handled one at a time:
 * a renew blocked on an expired lease holds up every other lease on the same stream. The response
 * header is filled before the renew, so its revision never postdates the renewal.
 */
export class KeepAliveServerStream implements ServedStream {
  private readonly queue: bigint[] = [];
  private busy = false;
  private ended = false;
  /** The request being renewed, and the header filled for its response before the renew began. */
  private id = 0n;
  private header: ResponseHeader | undefined;

  constructor(
    private readonly server: EtcdServer,
    private readonly send: (r: KeepAliveResponse) => void,
    private readonly fail: (e: RpcError) => void,
    /**
     * The stream's context carries `hasleader` (v3rpc/interceptor.go): refused at once on a member that
     * knows no leader, cancelled with ErrNoLeader when it loses its leader. Without it a renew waits for
     * a leader inside the request timeout.
     */
    readonly requireLeader: boolean,
  ) {
    if (!server.addStream(this)) {
      this.ended = true;
      fail(toRpcError(ErrNoLeader));
    }
  }

  recv(id: bigint): void {
    if (this.ended) return;
    // Nothing ahead of it: handled at once, without passing through the queue.
    if (!this.busy && this.queue.length === 0) return this.start(id);
    this.queue.push(id);
    this.pump();
  }

  /** The client cancelled the stream. */
  cancel(): void {
    this.end();
  }

  abort(reason: 'no-leader' | 'stopped'): void {
    if (this.ended) return;
    this.end();
    this.fail(reason === 'no-leader' ? toRpcError(ErrNoLeader) : unavailable);
  }

  private pump(): void {
    if (this.busy || this.ended) return;
    const id = this.queue.shift();
    if (id === undefined) return;
    this.start(id);
  }

  private start(id: bigint): void {
    this.busy = true;
    this.id = id;
    this.header = this.server.header();
    leaseRenew(this.server, id, this.renewed, this);
  }

  /** The answer to the renew in flight (one at a time, so one callback per stream serves them all). */
  private readonly renewed = (r: LeaseRenewResult): void => {
    this.busy = false;
    if (this.ended) return;
    const { header, id } = this;
    if (r.err === ErrLeaseNotFound) this.send({ header: header!, id, ttl: 0 });
    else if (r.err !== undefined) {
      this.end();
      return this.fail(toRpcError(r.err));
    } else this.send({ header: header!, id, ttl: r.ttl });
    this.pump();
  };

  /** The stream's context is done (a forwarded renewal stops with it). */
  get cancelled(): boolean {
    return this.ended;
  }

  private end(): void {
    this.ended = true;
    this.server.removeStream(this);
  }
}
