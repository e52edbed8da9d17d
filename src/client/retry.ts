import type { Prng } from '../clock/prng.js';
import { NANOS_PER_MICRO, type Micros } from '../clock/time.js';
import type { RpcError } from '../cluster/server/api.js';
import { BACKOFF_JITTER_FRACTION, BACKOFF_WAIT_BETWEEN_US } from './constants.js';

/**
 * clientv3's unary retry interceptor (client/v3/retry_interceptor.go, retry.go, client.go@v3.5.33).
 *
 * - Policy. Lease RPCs (Grant, Revoke, TimeToLive, Leases) and Range are `repeatable`: retried while the
 *   error is gRPC Unavailable. Put, DeleteRange and Txn are `nonRepeatable`: retried only when the
 *   request provably never left ("there is no address available"), which this simulation never
 *   produces, so they are not retried.
 * - Attempts. The interceptor loops `attempt < max` with max = 100: 100 attempts, the first included.
 * - Backoff. `roundRobinQuorumBackoff(25 ms, 0.10)`: before attempt k > 0 it waits only when
 *   `k % quorum == 0` (quorum = ⌊endpoints/2⌋ + 1), so a retry first goes straight to the next
 *   endpoint and the client backs off once per quorum of endpoints tried; the wait is `jitterUp`.
 */
export type RetryPolicy = 'repeatable' | 'nonRepeatable';

/** Whether `err` may be retried under `policy` (isSafeRetryImmutableRPC / isSafeRetryMutableRPC). */
export function isSafeRetry(policy: RetryPolicy, err: RpcError): boolean {
  return policy === 'repeatable' && err.code === 'Unavailable';
}

/**
 * `jitterUp(25 ms, 0.10)`: `d * (1 + f * (2u - 1))` with u uniform in [0, 1), computed in float64 on
 * nanoseconds and truncated to a Duration as Go does, then floored to µs. One PRNG draw per call.
 */
export function jitterUp(
  prng: Prng,
  waitUs: Micros = BACKOFF_WAIT_BETWEEN_US,
  fraction = BACKOFF_JITTER_FRACTION,
): Micros {
  const multiplier = fraction * (prng.float() * 2 - 1);
  const ns = Math.trunc(waitUs * NANOS_PER_MICRO * (1 + multiplier));
  return Math.floor(ns / NANOS_PER_MICRO);
}

/** The wait before attempt `attempt` (0-based; attempt 0 never waits). Draws from `prng` only when it waits. */
export function backoffBefore(attempt: number, endpointCount: number, prng: Prng): Micros {
  if (attempt <= 0) return 0;
  const quorum = Math.floor(endpointCount / 2) + 1;
  return attempt % quorum === 0 ? jitterUp(prng) : 0;
}
