import { isRpcError } from '../client/index.js';
import type { HeartbeatStrategy } from './heartbeat.js';

/**
 * The runbook's step 3: `for ka := range ch {}`, then `if ctx.Err() == nil { onLost() }`. The channel
 * closes on a TTL ≤ 0 answer, on the keep-alive deadline, or when the holder cancels its context; only
 * the last is not a loss.
 */
export const runbookGoStep3: HeartbeatStrategy = (host, lease) => {
  let cancelled = false;
  const ch = host.client.keepAlive(lease.id);
  ch.onResponse((r) => host.renewed(lease, { ttl: r.ttl }));
  ch.onClose((reason) => {
    if (cancelled) return;
    host.noticed(lease, `keepalive-closed:${reason}`, 'lost');
    host.lost(lease, `keepalive-closed:${reason}`);
  });
  return {
    cancel() {
      cancelled = true;
      ch.close();
    },
  };
};

/**
 * The runbook's step 5: after the channel closes, "confirm before assuming": onLost only if
 * `TimeToLive` returns an error. etcd answers TimeToLive for a missing lease with TTL −1 and no error
 * (v3rpc/lease.go LeaseTimeToLive), so an expired lease is never reported lost: the holder goes on.
 */
export const runbookGoStep5: HeartbeatStrategy = (host, lease) => {
  let cancelled = false;
  const ch = host.client.keepAlive(lease.id);
  ch.onResponse((r) => host.renewed(lease, { ttl: r.ttl }));
  ch.onClose((reason) => {
    if (cancelled) return;
    host.client.timeToLive(lease.id, {}, (res) => {
      if (cancelled) return;
      if (isRpcError(res)) {
        host.noticed(lease, `keepalive-closed:${reason}`, 'lost', { timetolive: res.name });
        host.lost(lease, `timetolive-error:${res.name}`);
      } else {
        host.noticed(lease, `keepalive-closed:${reason}`, 'still-held', { timetolive: res.ttl });
      }
    });
  });
  return {
    cancel() {
      cancelled = true;
      ch.close();
    },
  };
};
