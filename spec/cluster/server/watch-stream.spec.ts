import { describe, expect, it } from 'vitest';
import type { WatchResponse } from '../../../src/cluster/server/api.js';
import { kvHarness } from './kv-harness.js';

/** One line per response: id, flags, header revision, events as TYPE key@mod (prev value). */
const show = (rs: readonly WatchResponse[]) =>
  rs.map((r) =>
    [
      `id=${r.watchId} rev=${r.header.revision}`,
      r.created ? 'created' : '',
      r.canceled ? `canceled${r.cancelReason !== '' ? `(${r.cancelReason})` : ''}` : '',
      r.compactRevision !== 0 ? `compact=${r.compactRevision}` : '',
      ...r.events.map(
        (e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}${e.prevKv !== undefined ? `(prev ${e.prevKv.value})` : ''}`,
      ),
    ]
      .filter((x) => x !== '')
      .join(' '),
  );

// Restates, as ours, cases of etcd 3.4.23's integration/v3_watch_test.go and mvcc/watchable_store_test.go.
describe('Watch stream (etcd v3rpc serverWatchStream)', () => {
  it('answers create before events, numbers watches from 0, and sends one response per transaction', () => {
    const h = kvHarness();
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'a' });
    w.send({ op: 'WatchCreate', key: 'a', rangeEnd: 'c' });
    h.put('a', '1');
    h.put('b', '2');
    h.settle();
    expect(show(w.got)).toEqual([
      'id=0 rev=1 created',
      'id=1 rev=1 created',
      'id=0 rev=2 PUT a@2',
      'id=1 rev=2 PUT a@2',
      'id=1 rev=3 PUT b@3',
    ]);
  });

  it('replays history from start_revision in one response at the current revision (TestWatchWithStartRevision)', () => {
    const h = kvHarness();
    h.put('a', '1');
    h.put('a', '2');
    h.del('a');
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'a', startRevision: 2, prevKv: true });
    expect(show(w.got)).toEqual(['id=0 rev=4 created', 'id=0 rev=4 PUT a@2 PUT a@3(prev 1) DELETE a@4(prev 2)']);
  });

  it('cancels a compacted start with compact_revision and header revision 0 (TestWatchCompactRevision)', () => {
    const h = kvHarness();
    for (let i = 0; i < 4; i++) h.put('a', `${i}`);
    h.ok('Compaction', { op: 'Compaction', revision: 4 });
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'a', startRevision: 2 });
    w.send({ op: 'WatchCreate', key: 'a', startRevision: 4 });
    expect(show(w.got)).toEqual([
      'id=0 rev=5 created',
      'id=0 rev=0 canceled compact=4',
      'id=1 rev=5 created',
      'id=1 rev=5 PUT a@4 PUT a@5',
    ]);
  });

  it('sends history in responses of at most 1000 revisions, each headed by the current revision', () => {
    const h = kvHarness();
    const t = h.c.server('n1')!.store;
    // Written straight into the member's store: 1,500 revisions without 1,500 raft round trips.
    for (let i = 0; i < 1500; i++) t.put('k', `${i}`);
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'k', startRevision: 2 });
    const batches = w.got.slice(1).map((r) => [r.header.revision, r.events.length, r.events[0]?.kv.modRevision]);
    expect(batches).toEqual([
      [1501, 1000, 2],
      [1501, 500, 1002],
    ]);
  });

  it('filters NOPUT and NODELETE and drops a response left empty', () => {
    const h = kvHarness();
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'a', filters: ['NOPUT'] });
    w.send({ op: 'WatchCreate', key: 'a', filters: ['NODELETE'] });
    h.put('a');
    h.del('a');
    h.settle();
    expect(show(w.got)).toEqual([
      'id=0 rev=1 created',
      'id=1 rev=1 created',
      'id=1 rev=2 PUT a@2',
      'id=0 rev=3 DELETE a@3',
    ]);
  });

  it('refuses an empty range and a duplicate ID with watch ID -1, and cancels only known watches', () => {
    const h = kvHarness();
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'b', rangeEnd: 'a' });
    w.send({ op: 'WatchCreate', key: 'a', watchId: 7 });
    w.send({ op: 'WatchCreate', key: 'a', watchId: 7 });
    w.send({ op: 'WatchCancel', watchId: 3 });
    w.send({ op: 'WatchCancel', watchId: 7 });
    h.put('a');
    h.settle();
    expect(show(w.got)).toEqual([
      'id=-1 rev=1 created canceled(mvcc: watcher range is empty)',
      'id=7 rev=1 created',
      'id=-1 rev=1 created canceled(mvcc: duplicate watch ID provided on the WatchStream)',
      'id=7 rev=1 canceled',
    ]);
  });

  it('answers a progress request with watch ID -1 and the current revision', () => {
    const h = kvHarness();
    h.put('x');
    const w = h.watch();
    w.send({ op: 'WatchProgress' });
    expect(show(w.got)).toEqual(['id=-1 rev=2']);
  });

  it('sends progress_notify to idle watches every ten minutes or so, skipping a watch that just had events', () => {
    const h = kvHarness();
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'a', progressNotify: true });
    w.send({ op: 'WatchCreate', key: 'b', progressNotify: true });
    h.c.runUntil(h.c.now() + 9 * 60_000_000);
    h.put('a');
    h.c.runUntil(h.c.now() + 2.5 * 60_000_000);
    expect(show(w.got)).toEqual(['id=0 rev=1 created', 'id=1 rev=1 created', 'id=0 rev=2 PUT a@2', 'id=1 rev=2']);
  });

  it('ends with the connection when the member crashes', () => {
    const h = kvHarness();
    const w = h.watch();
    w.send({ op: 'WatchCreate', key: 'a' });
    h.c.crash('n1');
    h.settle();
    expect(w.errors.map((e) => e.code)).toEqual(['Unavailable']);
  });
});
