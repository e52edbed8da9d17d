import { MICROS_PER_SECOND, ms, seconds, type Micros } from '../clock/time.js';

/**
 * clientv3's constants (client/v3/lease.go, client/v3/client.go, client/v3/concurrency/session.go at
 * v3.5.33; 3.4.23 has the same values). Durations in µs.
 */

/** lease.go `defaultTTL`: the first keepalive deadline when DialTimeout is 0. */
export const DEFAULT_TTL_US: Micros = seconds(5);
/** lease.go `retryConnWait`: send-loop period and the wait before a keepalive stream is reopened. */
export const RETRY_CONN_WAIT_US: Micros = ms(500);
/**
 * One pass of sendKeepAliveLoop beyond its 500 ms sleep: the loop reads `now`, sends, then starts
 * `time.After(retryConnWait)` (clientv3/lease.go@v3.4.23 L480-512), so every pass starts later than the
 * one before by the timer's wake-up latency plus the pass's own work. That drift decides which pass a
 * renewal falls on: `nextKeepAlive = response time + TTL/3`, and six passes later the loop has drifted
 * 6 × this, more than the round trip, so the renewal goes out on the 6th pass (TTL/3 after the last)
 * instead of the 7th (500 ms later). Measured on etcdctl 3.4.23 (the seed runbook, TTL 9): renewals
 * 3.004–3.005 s apart, i.e. six passes of 500.7 ms.
 */
export const SEND_PASS_DRIFT_US: Micros = 700;
/** lease.go deadlineLoop period. */
export const DEADLINE_LOOP_US: Micros = seconds(1);
/** concurrency/session.go `defaultSessionTTL`, seconds. */
export const DEFAULT_SESSION_TTL = 60;

/** client.go: `defaultUnaryMaxRetries` — attempts, first one included (the interceptor loops `attempt < max`). */
export const UNARY_MAX_ATTEMPTS = 100;
/** client.go: `defaultBackoffWaitBetween`. */
export const BACKOFF_WAIT_BETWEEN_US: Micros = ms(25);
/** client.go: `defaultBackoffJitterFraction`. */
export const BACKOFF_JITTER_FRACTION = 0.1;

/** Config defaults. DialTimeout 5 s is the runbook's (and etcdctl's `--dial-timeout` default is 2 s). */
export const DEFAULT_DIAL_TIMEOUT_US: Micros = seconds(5);
/** etcd's own request timeout (5 s + 2 × election timeout), used as each unary call's context deadline. */
export const DEFAULT_REQUEST_TIMEOUT_US: Micros = seconds(7);
/** etcdctl `--keepalive-time` default: gRPC pings after this long without hearing from the member. */
export const DEFAULT_DIAL_KEEPALIVE_TIME_US: Micros = seconds(2);
/** etcdctl `--keepalive-timeout` default: an unanswered ping closes the connection after this long. */
export const DEFAULT_DIAL_KEEPALIVE_TIMEOUT_US: Micros = seconds(6);

/**
 * `firstKeepAliveTimeout = DialTimeout + 1 s`, replaced by `defaultTTL` (5 s) when it equals exactly
 * 1 s, i.e. when DialTimeout is 0 (lease.go NewLease / NewLeaseFromLeaseClient).
 */
export function firstKeepAliveTimeout(dialTimeoutUs: Micros): Micros {
  const t = dialTimeoutUs + MICROS_PER_SECOND;
  return t === MICROS_PER_SECOND ? DEFAULT_TTL_US : t;
}
