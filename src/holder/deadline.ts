import { MICROS_PER_SECOND } from '../clock/time.js';
import type { Timer } from '../clock/scheduler.js';
import { ErrLeaseNotFound, isRpcError, nextKeepAliveDelay } from '../client/index.js';
import type { HeartbeatStrategy } from './heartbeat.js';

/** A failed renewal is retried this soon (clientv3's keep-alive loop resends every 500 ms too). */
const RETRY_US = 500_000;

/**
 * The correct holder: it renews with KeepAliveOnce every TTL/3, each attempt given TTL/3 to answer (a
 * renewal stuck behind a frozen leader is retried instead of waited on), and acts only before
 * `send time of its last acknowledged renewal + TTL − margin` on its own clock. etcd's leader sets the
 * lease's expiry no earlier than it receives that renewal, which is after the holder sent it, so with a
 * margin covering the clocks' disagreement the holder stops before any revoke (docs/holders.md).
 * Every write is checked against the deadline first, so a holder that wakes from a pause past its
 * deadline stops instead of writing.
 */
export const deadline: HeartbeatStrategy = (host, lease) => {
  const ttlUs = (ttl: number): number => ttl * MICROS_PER_SECOND;
  let until = lease.grantSentAt + ttlUs(lease.ttlSeconds) - host.marginUs;
  let stopped = false;
  let stopTimer: Timer | undefined;
  let renewTimer: Timer | undefined;
  const stop = (reason: string): void => {
    if (stopped) return;
    host.lost(lease, reason, reason === 'deadline' ? Math.max(0, host.clock() - until) : 0);
  };
  const armStop = (): void => {
    stopTimer?.cancel();
    stopTimer = host.process.after(Math.max(0, until - host.clock()), () => {
      if (host.clock() >= until) stop('deadline');
      else armStop();
    });
  };
  const renew = (): void => {
    if (stopped) return;
    const sent = host.clock();
    host.client.keepAliveOnce(
      lease.id,
      (res) => {
        if (stopped) return;
        if (isRpcError(res)) {
          if (res.name === ErrLeaseNotFound.name) {
            host.noticed(lease, 'keepalive-once:ErrLeaseNotFound', 'lost');
            return stop('lease-not-found');
          }
          host.noticed(lease, `keepalive-once:${res.name}`, 'retry');
          renewTimer = host.process.after(RETRY_US, renew);
          return;
        }
        until = Math.max(until, sent + ttlUs(res.ttl) - host.marginUs);
        host.renewed(lease, { ttl: res.ttl });
        host.actsUntil(lease, until);
        armStop();
        renewTimer = host.process.after(nextKeepAliveDelay(lease.ttlSeconds), renew);
      },
      { timeoutUs: Math.max(1, nextKeepAliveDelay(lease.ttlSeconds)) },
    );
  };
  host.actsUntil(lease, until);
  armStop();
  renewTimer = host.process.after(nextKeepAliveDelay(lease.ttlSeconds), renew);
  return {
    cancel() {
      stopped = true;
      stopTimer?.cancel();
      renewTimer?.cancel();
    },
    mayAct() {
      if (host.clock() < until) return true;
      stop('deadline');
      return false;
    },
  };
};
