import type { LeaseCheckpoint } from '../../lessor/lessor.js';
import type { DeleteRangeRequest, PutRequest, TxnRequest } from './api.js';

/**
 * etcd's InternalRaftRequest: what a proposal carries. `reqId` comes from the proposing member's ID
 * generator; `origin` is the member that waits for the result (etcd's wait registry is per member).
 */
export type RaftRequest = { readonly reqId: bigint; readonly origin: string } & (
  | { readonly type: 'LeaseGrant'; readonly id: bigint; readonly ttl: number }
  | { readonly type: 'LeaseRevoke'; readonly id: bigint }
  | { readonly type: 'LeaseCheckpoint'; readonly checkpoints: readonly LeaseCheckpoint[] }
  | { readonly type: 'Put'; readonly put: PutRequest }
  | { readonly type: 'DeleteRange'; readonly deleteRange: DeleteRangeRequest }
  | { readonly type: 'Txn'; readonly txn: TxnRequest }
  | { readonly type: 'Compaction'; readonly revision: number }
);

/** Distributes Omit over the union, so each request kind keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type RaftRequestBody = DistributiveOmit<RaftRequest, 'reqId' | 'origin'>;
