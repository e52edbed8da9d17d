import type { Timer } from '../clock/scheduler.js';
import type { ResponseHeader, RpcError, WatchStream } from '../cluster/server/api.js';
import type { WatchEvent } from '../cluster/mvcc/index.js';
import type { Conn } from './conn.js';
import { RETRY_CONN_WAIT_US } from './constants.js';
import type { ClientCore } from './core.js';

export interface ClientWatchOptions {
  readonly prefix?: boolean;
  /** First revision to deliver; without it the watch starts after the member's current revision. */
  readonly fromRevision?: number;
  /**
   * clientv3.WithRequireLeader on the watch's context (etcdctl watch always has it): the member ends the
   * stream with ErrNoLeader (Unavailable, so the client fails over) when it has no leader. Off by default, as
   * clientv3's Watch: the stream then stays open on a leaderless member and delivers nothing until one returns.
   */
  readonly requireLeader?: boolean;
}

export interface ClientWatchHandlers {
  onEvents(events: readonly WatchEvent[], header: ResponseHeader): void;
  /** The watch ended with an error the client cannot handle itself (anything but Unavailable). */
  onError?(e: RpcError): void;
}

/**
 * A clientv3 watch: the user sees one uninterrupted event stream. When the underlying stream ends with
 * Unavailable (member gone, connection torn down, "no leader") the client fails over and re-creates it
 * on the pinned member from the revision after the last event it delivered, so no event is lost or
 * repeated. Any other error ends the watch and is reported.
 *
 * [SIM-CHOICE] clientv3 re-creates the stream as soon as gRPC has a connection; here it waits
 * retryConnWait (500 ms), like the keepalive loop. Simplification: without `fromRevision` and before
 * the first event, a resumed watch starts again from the new member's current revision (clientv3
 * pins the revision from the "created" response, which this transport does not have).
 */
export class ClientWatch {
  private stream: WatchStream | undefined;
  private reopen: Timer | undefined;
  private nextRev: number | undefined;
  private ended = false;

  constructor(
    private readonly core: ClientCore,
    readonly key: string,
    private readonly opts: ClientWatchOptions,
    private readonly handlers: ClientWatchHandlers,
  ) {
    this.nextRev = opts.fromRevision;
    this.open();
  }

  get active(): boolean {
    return !this.ended;
  }

  cancel(): void {
    if (this.ended) return;
    this.ended = true;
    this.reopen?.cancel();
    this.stream?.close();
    this.stream = undefined;
  }

  private open(): void {
    this.reopen = undefined;
    if (this.ended) return;
    if (this.core.closed) {
      this.ended = true;
      return;
    }
    const conn = this.core.balancer.current;
    const opts: { prefix?: boolean; fromRevision?: number; requireLeader?: boolean } = {};
    if (this.opts.prefix === true) opts.prefix = true;
    if (this.opts.requireLeader === true) opts.requireLeader = true;
    if (this.nextRev !== undefined) opts.fromRevision = this.nextRev;
    this.stream = conn.watch(this.key, opts, {
      onEvents: (events, header) => {
        if (this.ended) return;
        const last = events[events.length - 1];
        if (last !== undefined) this.nextRev = last.revision + 1;
        this.handlers.onEvents(events, header);
      },
      onError: (e) => this.onError(conn, e),
    });
  }

  private onError(conn: Conn, e: RpcError): void {
    if (this.ended) return;
    this.stream = undefined;
    const { tracer, balancer, process } = this.core;
    if (tracer.on)
      tracer.emit('client-watch-error', undefined, { key: this.key, endpoint: conn.endpoint, error: e.name });
    if (e.code === 'Unavailable') {
      balancer.fail(conn, e.name);
      this.reopen = process.after(RETRY_CONN_WAIT_US, () => this.open());
      return;
    }
    this.ended = true;
    this.handlers.onError?.(e);
  }
}
