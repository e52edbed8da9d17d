/** mvcc's errors (mvcc/kvstore.go, mvcc/watcher.go), compared by identity like the server's. */
export class MvccError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** A read or compaction asked for a revision compaction already dropped. */
export const ErrCompacted = new MvccError('ErrCompacted', 'mvcc: required revision has been compacted');
/** A read or compaction asked for a revision the store has not reached. */
export const ErrFutureRev = new MvccError('ErrFutureRev', 'mvcc: required revision is a future revision');
/** A watch whose key is not below its range end. */
export const ErrEmptyWatcherRange = new MvccError('ErrEmptyWatcherRange', 'mvcc: watcher range is empty');
/** A watch ID already in use on the stream. */
export const ErrWatcherDuplicateID = new MvccError(
  'ErrWatcherDuplicateID',
  'mvcc: duplicate watch ID provided on the WatchStream',
);
