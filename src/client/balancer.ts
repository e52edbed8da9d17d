import { Conn, type ConnHost } from './conn.js';
import type { ClientTracer } from './tracer.js';

/**
 * Which member the client talks to.
 *
 * [SIM-CHOICE] Pinned endpoint with round-robin failover (clientv3 3.3's "pinned address" balancer;
 * 3.4+ hands every new RPC to gRPC's round-robin picker instead). The client starts on the first
 * endpoint and stays there until a failure on the pinned connection: an Unavailable answer (which
 * includes etcd's "no leader", "leader changed", "request timed out" and "server stopped"), a unary
 * call that hit its deadline, or a connection declared dead by the liveness check. It then moves to
 * the next endpoint in the list (wrapping around) and tears the old connection down, so whatever was
 * still open there ends with ErrConnClosing and is retried or reopened on the new member. A failure
 * seen on a connection that is no longer pinned moves nothing, so one outage moves the client once.
 * A retry loop therefore walks the endpoints in order, which is what roundRobinQuorumBackoff's
 * "back off once per quorum of endpoints" assumes.
 */
export class Balancer {
  private index = 0;
  private seq = 1;
  private conn: Conn;
  private closed = false;
  /** Number of failovers so far. */
  failovers = 0;

  constructor(
    readonly endpoints: readonly string[],
    private readonly host: ConnHost,
    private readonly tracer: ClientTracer,
  ) {
    if (endpoints.length === 0) throw new RangeError('client: at least one endpoint is required');
    this.conn = new Conn(endpoints[0]!, this.seq, host);
  }

  /** The pinned connection. */
  get current(): Conn {
    return this.conn;
  }

  get endpoint(): string {
    return this.conn.endpoint;
  }

  /** Reports a failure seen on `conn`; moves to the next endpoint if `conn` is still the pinned one. */
  fail(conn: Conn, reason: string): void {
    if (this.closed || conn !== this.conn) return;
    this.index = (this.index + 1) % this.endpoints.length;
    this.conn = new Conn(this.endpoints[this.index]!, ++this.seq, this.host);
    this.failovers++;
    if (this.tracer.on)
      this.tracer.emit('client-failover', undefined, { from: conn.endpoint, to: this.conn.endpoint, reason });
    conn.kill();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.kill();
  }
}
