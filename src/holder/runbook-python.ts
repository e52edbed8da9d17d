import type { KeepAliveResponse, RpcError } from '../cluster/server/api.js';
import { isRpcError, type EtcdClient } from '../client/index.js';
import type { Heartbeat, HeartbeatHost, HeartbeatStrategy, HeldLease } from './heartbeat.js';

/**
 * python-etcd3's `Lease.refresh()`: `list(refresh_lease(id))`, a LeaseKeepAlive stream carrying one
 * request, on the client's one connection, with the client's `timeout` (None by default: no deadline).
 * Every response is returned as it is: a TTL 0 answer (lease not found) raises nothing. A gRPC error
 * raises.
 */
function refresh(client: EtcdClient, id: bigint, done: (res: KeepAliveResponse | RpcError) => void): () => void {
  let settled = false;
  const s = client.core.balancer.current.openKeepAlive({
    onResponse: (r) => {
      if (settled) return;
      settled = true;
      s.close();
      done(r);
    },
    onError: (e) => {
      if (settled) return;
      settled = true;
      done(e);
    },
  });
  s.send(id);
  return () => {
    settled = true;
    s.close();
  };
}

/**
 * The runbook's Python daemon loop: `while not stop_event.wait(interval_s): try: lease.refresh()
 * except Exception: on_lost(); return`. A refresh that never returns (a member that does not answer)
 * blocks the loop for good, and the holder goes on believing.
 */
export const runbookPython: HeartbeatStrategy = (host, lease) => pythonLoop(host, lease, false);

/** The loop fixed: a refresh answered with TTL 0 is a lost lease too. */
export const pythonChecked: HeartbeatStrategy = (host, lease) => pythonLoop(host, lease, true);

function pythonLoop(host: HeartbeatHost, lease: HeldLease, checkTtl: boolean): Heartbeat {
  let stopped = false;
  let abort: (() => void) | undefined;
  const loop = (): void => {
    if (stopped) return;
    abort = refresh(host.client, lease.id, (res) => {
      abort = undefined;
      if (stopped) return;
      if (isRpcError(res)) {
        host.noticed(lease, `refresh-raised:${res.name}`, 'lost');
        host.lost(lease, `refresh-raised:${res.name}`);
        return;
      }
      if (res.ttl <= 0) {
        host.noticed(lease, 'refresh-ttl-0', checkTtl ? 'lost' : 'still-held', { ttl: res.ttl });
        if (checkTtl) return host.lost(lease, 'refresh-ttl-0');
      } else host.renewed(lease, { ttl: res.ttl });
      timer = host.process.after(host.intervalUs, loop);
    });
  };
  let timer = host.process.after(host.intervalUs, loop);
  return {
    cancel() {
      stopped = true;
      timer.cancel();
      abort?.();
    },
  };
}
