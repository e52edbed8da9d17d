import type { Timer } from '../../clock/scheduler.js';
import type { Micros } from '../../clock/time.js';
import {
  ErrEmptyWatcherRange,
  ErrWatcherDuplicateID,
  gteRangeEnd,
  MvccError,
  type CancelWatch,
  type KeyValue,
  type KvEvent,
  type KvRecord,
} from '../mvcc/index.js';
import type { ResponseHeader, WatchCreateRequest, WatchRequest, WatchResponse } from './api.js';
import type { EtcdServer } from './etcd-server.js';

/** clientv3's InvalidWatchID: the watch ID of a failed create and of a stream-wide progress response. */
export const INVALID_WATCH_ID = -1;
/** v3rpc's progressReportInterval: how often idle watches with progress_notify hear the revision. */
export const PROGRESS_REPORT_INTERVAL_US: Micros = 10 * 60 * 1_000_000;
/** watchable_store's watchBatchMaxRevs: most revisions one history response carries. */
export const WATCH_BATCH_MAX_REVS = 1000;

interface ServedWatch {
  cancel: CancelWatch;
  readonly prevKv: boolean;
  readonly noPut: boolean;
  readonly noDelete: boolean;
  /** v3rpc's progress map: has a progress_notify, and is due one (no events since the last tick). */
  progress: boolean | undefined;
}

/**
 * The member's end of one Watch stream: etcd's serverWatchStream (v3rpc/watch.go) over mvcc's
 * watchStream, delivering synchronously. A create is answered with `created` before any of its events;
 * history comes in one response per WATCH_BATCH_MAX_REVS revisions with the current revision in its
 * header; each later transaction is one response with the transaction's revision; a start revision
 * below the last compaction gets one response with compactRevision, canceled and header revision 0.
 */
export class ServerWatchStream {
  private readonly watches = new Map<number, ServedWatch>();
  private nextId = 0;
  private closed = false;
  private progressTimer: Timer | undefined;
  private readonly openedAt: Micros;

  constructor(
    private readonly s: EtcdServer,
    private readonly send: (r: WatchResponse) => void,
  ) {
    this.openedAt = s.proc.now();
  }

  handle(req: WatchRequest): void {
    if (this.closed) return;
    switch (req.op) {
      case 'WatchCreate':
        return this.create(req);
      case 'WatchCancel': {
        const w = this.watches.get(req.watchId);
        // etcd answers only a cancel of a watch the stream has.
        if (w === undefined) return;
        w.cancel();
        this.watches.delete(req.watchId);
        return this.send(response(this.header(this.s.store.currentRevision), req.watchId, { canceled: true }));
      }
      case 'WatchProgress':
        return this.send(response(this.header(this.s.store.currentRevision), INVALID_WATCH_ID, {}));
    }
  }

  /** The stream ends (client cancel, member stop): every watch goes with it. */
  close(): void {
    this.closed = true;
    this.progressTimer?.cancel();
    for (const w of this.watches.values()) w.cancel();
    this.watches.clear();
  }

  private create(req: WatchCreateRequest): void {
    // '' is the smallest key, "\0"; an empty range end is a single key, "\0" every key from `key` on.
    const key = req.key === '' ? '\0' : req.key;
    const end = gteRangeEnd(req.rangeEnd);
    const wsrev = this.s.store.currentRevision;
    const err = this.checkCreate(key, end, req.watchId ?? 0);
    if (err !== undefined) {
      const r = { created: true, canceled: true, cancelReason: err.message };
      return this.send(response(this.header(wsrev), INVALID_WATCH_ID, r));
    }
    const id = this.allocate(req.watchId ?? 0);
    const filters = req.filters ?? [];
    const w: ServedWatch = {
      cancel: () => {},
      prevKv: req.prevKv === true,
      noPut: filters.includes('NOPUT'),
      noDelete: filters.includes('NODELETE'),
      progress: req.progressNotify === true ? true : undefined,
    };
    this.watches.set(id, w);
    // Rows the store delivers while the watch is being created wait for the created response.
    let pending: WatchResponse[] | undefined = [];
    let replaying = true;
    const out = (r: WatchResponse): void => (pending !== undefined ? void pending.push(r) : this.deliver(id, r));
    const rangeStart = req.startRevision !== undefined && req.startRevision !== 0 ? req.startRevision : wsrev + 1;
    w.cancel = this.s.store.watchRange({ key, end }, rangeStart, (rows, compacted) => {
      if (compacted !== undefined) {
        return out(response(this.header(0), id, { canceled: true, compactRevision: compacted.compactRevision }));
      }
      if (!replaying) return out(this.eventsResponse(w, id, rows, rows[0]!.modRevision));
      // History: the current revision in each header, at most WATCH_BATCH_MAX_REVS revisions a response.
      const current = this.s.store.currentRevision;
      for (const chunk of byRevisions(rows, WATCH_BATCH_MAX_REVS)) out(this.eventsResponse(w, id, chunk, current));
    });
    replaying = false;
    if (req.progressNotify === true) this.startProgress();
    this.send(response(this.header(wsrev), id, { created: true }));
    const held = pending;
    pending = undefined;
    for (const r of held) this.deliver(id, r);
  }

  private checkCreate(key: string, end: string | undefined, id: number): MvccError | undefined {
    if (end !== undefined && end !== '' && key >= end) return ErrEmptyWatcherRange;
    if (id !== 0 && this.watches.has(id)) return ErrWatcherDuplicateID;
    return undefined;
  }

  /** watchStream.Watch's ID: the client's, or the next one no watch of the stream holds. */
  private allocate(id: number): number {
    if (id !== 0) return id;
    while (this.watches.has(this.nextId)) this.nextId++;
    return this.nextId++;
  }

  /** One response of events, with sendLoop's prev_kv lookup for all but create events. */
  private eventsResponse(w: ServedWatch, id: number, rows: readonly KvRecord[], rev: number): WatchResponse {
    return { ...response(this.header(rev), id, {}), events: rows.map((r) => this.toEvent(w, r)) };
  }

  private toEvent(w: ServedWatch, r: KvRecord): KvEvent {
    const kv = toKeyValue(r);
    const type = r.tombstone ? 'DELETE' : 'PUT';
    if (!w.prevKv || (type === 'PUT' && kv.createRevision === kv.modRevision)) return { type, kv };
    const prev = this.prevKv(r);
    return prev === undefined ? { type, kv } : { type, kv, prevKv: prev };
  }

  private prevKv(r: KvRecord): KeyValue | undefined {
    try {
      return this.s.store.rangeKeys(r.key, undefined, { rev: r.modRevision - 1 }).kvs[0];
    } catch (e) {
      // A compacted previous version is simply left out, as etcd does.
      if (e instanceof MvccError) return undefined;
      throw e;
    }
  }

  /** Sends one response of watch `id` after its filters (a response left with no events is dropped). */
  private deliver(id: number, r: WatchResponse): void {
    const w = this.watches.get(id);
    if (w === undefined || this.closed) return;
    let events = r.events;
    if (w.noPut || w.noDelete) {
      events = events.filter((e) => !(e.type === 'PUT' ? w.noPut : w.noDelete));
      if (events.length === 0 && r.events.length > 0) return;
    }
    // A response with events makes the next progress tick skip this watch.
    if (events.length > 0 && w.progress !== undefined) w.progress = false;
    this.send(events === r.events ? r : { ...r, events });
  }

  /**
   * sendLoop's progress ticker, from the stream's start with etcd's jitter (up to a tenth of the
   * interval, drawn from the member's seeded stream): each tick sends the current revision to every
   * progress watch that had no events since the last one.
   */
  private startProgress(): void {
    if (this.progressTimer !== undefined) return;
    const interval = PROGRESS_REPORT_INTERVAL_US + this.s.streamPrng.int(0, PROGRESS_REPORT_INTERVAL_US / 10 - 1);
    const elapsed = this.s.proc.now() - this.openedAt;
    const tick = (): void => {
      if (this.closed) return;
      for (const [id, w] of this.watches) {
        if (w.progress === undefined) continue;
        if (w.progress) this.send(response(this.header(this.s.store.currentRevision), id, {}));
        w.progress = true;
      }
      this.progressTimer = this.s.proc.after(interval, tick);
    };
    this.progressTimer = this.s.proc.after(interval - (elapsed % interval), tick);
  }

  private header(revision: number): ResponseHeader {
    return { ...this.s.header(), revision };
  }
}

function response(
  header: ResponseHeader,
  watchId: number,
  r: { created?: boolean; canceled?: boolean; compactRevision?: number; cancelReason?: string },
): WatchResponse {
  return {
    header,
    watchId,
    created: r.created ?? false,
    canceled: r.canceled ?? false,
    compactRevision: r.compactRevision ?? 0,
    cancelReason: r.cancelReason ?? '',
    fragment: false,
    events: [],
  };
}

/** mvccpb.KeyValue of a row; a tombstone's is its key and revision, the rest zero. */
export function toKeyValue(r: KvRecord): KeyValue {
  return {
    key: r.key,
    value: r.value,
    createRevision: r.createRevision,
    modRevision: r.modRevision,
    version: r.version,
    lease: r.lease,
  };
}

/** Splits rows (in revision order) into runs of at most `max` distinct revisions. */
function byRevisions(rows: readonly KvRecord[], max: number): KvRecord[][] {
  const out: KvRecord[][] = [];
  let chunk: KvRecord[] = [];
  let revs = 0;
  let last = -1;
  for (const r of rows) {
    if (r.modRevision !== last) {
      if (revs === max) {
        out.push(chunk);
        chunk = [];
        revs = 0;
      }
      revs++;
      last = r.modRevision;
    }
    chunk.push(r);
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}
