// The holder layer's public face: application processes that hold a lock through a lease, the runbook's
// strategies and the correct one, and the record of what really happened to their leases.
export { Holder, type HolderEnv, type HolderSpec } from './holder.js';
export { HOLDER_STRATEGIES, HOLDER_STRATEGY_NAMES, isHolderStrategy, type HolderStrategy } from './strategies.js';
export type { Heartbeat, HeartbeatHost, HeartbeatStrategy, HeldLease } from './heartbeat.js';
export { HolderTruth } from './truth.js';
export {
  HolderRpcError,
  SettleGate,
  runUntilSettled,
  startUserHolder,
  type HolderApi,
  type UserHolderEnv,
  type UserHolderFn,
  type UserKeepAlive,
} from './user-holder.js';
export { HolderLedger } from './ledger.js';
