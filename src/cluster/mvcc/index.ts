export { KvBackend } from './backend.js';
export { ErrCompacted, ErrEmptyWatcherRange, ErrFutureRev, ErrWatcherDuplicateID, MvccError } from './errors.js';
export { hashByRev } from './hash.js';
export { gteRangeEnd, inKeyRange, prefixEnd, type KeyRange } from './key-range.js';
export type { EventType, KeyValue, KvEvent, KvRecord, WatchEvent } from './kv.js';
export type { LeaseIndex } from './lease-index.js';
export {
  MvccStore,
  newStore,
  restore,
  type RangeKeysOptions,
  type RangeOptions,
  type RangeResult,
  type StoreOptions,
} from './store.js';
export type { DeleteResult, PutFailed, PutOk, PutResult, TxnWrite } from './txn.js';
export type { CancelWatch, RecordCallback, WatchCallback, WatchCompacted, WatchOptions } from './watcher-group.js';
