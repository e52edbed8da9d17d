export { KvBackend } from './backend.js';
export type { EventType, KeyValue, KvEvent, KvRecord, WatchEvent } from './kv.js';
export type { LeaseIndex } from './lease-index.js';
export { MvccStore, newStore, restore, type RangeOptions, type StoreOptions } from './store.js';
export type { DeleteResult, PutFailed, PutOk, PutResult, TxnWrite } from './txn.js';
export type { CancelWatch, WatchCallback, WatchCompacted, WatchOptions } from './watcher-group.js';
