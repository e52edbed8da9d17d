import { LeaseBucket } from '../../lessor/lease-bucket.js';
import { KvBackend } from '../mvcc/backend.js';
import { RaftStorage } from '../raft/storage.js';

/**
 * What one member keeps across a crash: the WAL (raft storage) and the backend (lease bucket, key
 * bucket, consistent index). Everything else of a member is volatile and rebuilt on restart.
 */
export class Disk {
  readonly wal = new RaftStorage();
  readonly leases = new LeaseBucket();
  readonly kv = new KvBackend();
  /** etcd's consistent index: entries up to it are not applied again on restart. */
  consistentIndex = 0;
  /**
   * The index of the last snapshot (the snap file's metadata): the next one is due snapshot-count later.
   * Before the first it is minus the entries etcd applies at bootstrap that the modelled log leaves out,
   * so that snapshots fall where etcd's do.
   */
  snapshotIndex: number;

  constructor(unmodelledBootEntries = 0) {
    this.snapshotIndex = -unmodelledBootEntries;
  }
}
