/** The latest version of a live key, as etcd's `mvccpb.KeyValue` reports it. */
export interface KeyValue {
  readonly key: string;
  readonly value: string;
  /** Main revision of the put that created this generation of the key. */
  readonly createRevision: number;
  /** Main revision of the last put. */
  readonly modRevision: number;
  /** Puts since the key was (re)created: 1 for the creating put. */
  readonly version: number;
  /** The lease as written by the put; the lessor may no longer know it (see `restore`). */
  readonly lease: bigint;
}

/**
 * One row of the backend's key bucket, keyed as etcd keys it by (main, sub) revision. A tombstone is
 * etcd's delete marker: it carries only the key, so its value is empty and createRevision, version and
 * lease are 0.
 */
export interface KvRecord extends KeyValue {
  readonly subRevision: number;
  readonly tombstone: boolean;
}

export type EventType = 'PUT' | 'DELETE';

/**
 * A change as a watcher sees it. A DELETE carries lease 0 and no value, as etcd's tombstone does.
 */
export interface WatchEvent {
  readonly type: EventType;
  readonly key: string;
  readonly revision: number;
  readonly subRevision: number;
  readonly value?: string;
  readonly lease: bigint;
}

export function toWatchEvent(r: KvRecord): WatchEvent {
  return r.tombstone
    ? { type: 'DELETE', key: r.key, revision: r.modRevision, subRevision: r.subRevision, lease: 0n }
    : { type: 'PUT', key: r.key, revision: r.modRevision, subRevision: r.subRevision, value: r.value, lease: r.lease };
}

/**
 * etcd's mvccpb.Event, as its Watch RPC sends it. A DELETE's `kv` is the tombstone: the key and the
 * delete's modRevision, everything else zero or empty.
 */
export interface KvEvent {
  readonly type: EventType;
  readonly kv: KeyValue;
  /** With a watch's prevKv: the key before this change, absent if it did not exist. */
  readonly prevKv?: KeyValue;
}
