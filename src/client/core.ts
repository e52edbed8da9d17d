import type { Prng } from '../clock/prng.js';
import type { Process } from '../clock/process.js';
import type { Micros } from '../clock/time.js';
import type { ClusterTransport } from '../cluster/server/api.js';
import type { Balancer } from './balancer.js';
import type { ClientTracer } from './tracer.js';

/** What the client's parts (unary calls, keepalive loop, watches) share: one per EtcdClient. */
export interface ClientCore {
  readonly name: string;
  readonly process: Process;
  readonly transport: ClusterTransport;
  readonly prng: Prng;
  readonly tracer: ClientTracer;
  readonly balancer: Balancer;
  readonly requestTimeoutUs: Micros;
  readonly firstKeepAliveTimeoutUs: Micros;
  /** Default for `keepAlive(id, { requireLeader })`. */
  readonly requireLeader: boolean;
  /** The keepalive send loop's drift per pass beyond retryConnWait. */
  readonly sendPassDriftUs: Micros;
  readonly closed: boolean;
  /** Calls in flight, so `close()` can cancel them. */
  readonly inflight: Set<() => void>;
}

/** Per-call options (Go passes them through the call's context). */
export interface CallOptions {
  /** The call's deadline; defaults to the client's `requestTimeoutUs`. */
  readonly timeoutUs?: Micros;
  /** The caller's context has no deadline (client.Ctx(), context.TODO()): `timeoutUs` does not apply. */
  readonly noDeadline?: boolean;
}
