// The lessor layer's public face: the Lessor interface and its factory, leases, errors, the config a
// caller passes in, version profiles. Queues, timings and config resolution stay inside the layer.
export { createLessor } from './lessor.js';
export type {
  Checkpointer,
  LeaseCheckpoint,
  Lessor,
  LessorDeps,
  LessorView,
  RangeDeleter,
  RenewOutcome,
  TxnDelete,
} from './lessor.js';
export { FOREVER, FOREVER_TTL_SECONDS, Lease } from './lease.js';
export { LeaseBucket, type LeaseRecord } from './lease-bucket.js';
export { NoLease, type LeaseID } from './lease-id.js';
export * from './errors.js';
export { MaxLeaseTTL, type LessorConfig } from './config.js';
export { PROFILES, V3_4, V3_5, type Profile } from '../switches/profile.js';
export { LessorMetrics } from './metrics.js';
export { ExpiredChannel } from './expired-channel.js';
