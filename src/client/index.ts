// The client layer's public face: clientv3 (unary calls, KeepAlive), concurrency (Session, Mutex),
// a fencing-token resource, and the pause helpers.
export { EtcdClient } from './client.js';
export type {
  Callback,
  DeleteResponse,
  EtcdClientOptions,
  LeaseGrantResponse,
  LeaseLeasesResponse,
  LeaseRevokeResponse,
  LeaseTimeToLiveResponse,
  PutResponse,
  RangeResponse,
  TxnResponse,
  CompactResponse,
} from './client.js';
export type { CallOptions } from './core.js';
export * from './constants.js';
export * from './errors.js';
export { KeepAliveChannel, type KeepAliveCloseReason } from './keepalive-channel.js';
export { LeaseKeepAlive, nextKeepAliveDelay, type KeepAliveOptions } from './lease-keepalive.js';
export { ClientWatch, type ClientWatchHandlers, type ClientWatchOptions } from './watch.js';
export { Session, type SessionOptions } from './session.js';
export { Mutex, type LockResult, type MutexOptions } from './mutex.js';
export { Election, type LeaderView } from './election.js';
export { goHex, lockKey } from './lock-key.js';
export { CLIENT_PROFILES, CLIENT_V3_4, CLIENT_V3_5, type ClientProfile } from './profile.js';
export { FencedResource, type FencedWrite } from './fenced-resource.js';
export { newClientProcess, pauseClient, pauseClientFor, resumeClient } from './client-process.js';
export { backoffBefore, isSafeRetry, jitterUp, type RetryPolicy } from './retry.js';
