/** The built-in holder strategies: each is one way of keeping a lock's lease and noticing its loss. */
export const HOLDER_STRATEGIES = {
  'runbook-go-step3':
    "clientv3 KeepAlive; when the channel closes and the context is live, onLost (the runbook's step 3)",
  'runbook-go-step5':
    'as step 3, but onLost only when TimeToLive returns an error (the ' +
    "runbook's step 5); etcd answers a missing lease with TTL -1 and no error",
  'runbook-python':
    'python-etcd3: lease.refresh() every interval in a daemon loop, on_lost only when ' +
    'it raises; a keep-alive for a missing lease is answered with TTL 0 and no error',
  'python-checked': 'the Python daemon loop fixed: on_lost also when the refresh answers TTL <= 0 (the lease is gone)',
  deadline:
    'KeepAliveOnce every TTL/3; stops acting at the send time of ' +
    'its last acknowledged renewal + TTL - margin on its own clock',
} as const;

export type HolderStrategy = keyof typeof HOLDER_STRATEGIES;

export const HOLDER_STRATEGY_NAMES = Object.keys(HOLDER_STRATEGIES) as HolderStrategy[];

export function isHolderStrategy(s: string): s is HolderStrategy {
  return Object.hasOwn(HOLDER_STRATEGIES, s);
}
