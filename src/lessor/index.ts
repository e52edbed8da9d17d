// The lessor layer's public face: the Lessor interface and its factory, leases, errors, config.
export { createLessor } from './lessor.js';
export type { Checkpointer, LeaseCheckpoint, Lessor, LessorDeps, LessorView, RangeDeleter, RenewOutcome, TxnDelete } from './lessor.js';
export { FOREVER, FOREVER_TTL_SECONDS, Lease } from './lease.js';
export { LeaseBucket, type LeaseRecord } from './lease-bucket.js';
export { NoLease, compareBucketOrder, type LeaseID } from './lease-id.js';
export { LeaseExpiredNotifier, LeaseQueue, type LeaseWithTime } from './lease-queue.js';
export * from './errors.js';
export * from './config.js';
export { PROFILES, V3_4, V3_5, type Profile } from './profile.js';
export { LessorMetrics } from './metrics.js';
export { ExpiredChannel } from './expired-channel.js';
