import { describe, expect, it } from 'vitest';
import { newStore, type WatchCompacted, type WatchEvent } from '../../../src/cluster/mvcc/index.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

const short = (evs: WatchEvent[]) => evs.map((e) => `${e.type} ${e.key}@${e.revision}.${e.subRevision}`).join(' ');

function recorder() {
  const got: string[] = [];
  const errors: WatchCompacted[] = [];
  return {
    got,
    errors,
    cb: (evs: WatchEvent[], compacted?: WatchCompacted) => {
      if (compacted !== undefined) errors.push(compacted);
      else got.push(short(evs));
    },
  };
}

describe('mvcc watch', () => {
  it('delivers PUTs with value and lease, DELETEs without, one call per transaction', () => {
    const idx = new FakeLeaseIndex(0x1fn);
    const s = newStore(idx, { member: 'n1' });
    const got: WatchEvent[][] = [];
    s.watch('/a', {}, (evs) => got.push(evs));
    s.put('/a', 'v', 0x1fn);
    s.deleteRange('/a');
    expect(got).toEqual([
      [{ type: 'PUT', key: '/a', revision: 2, subRevision: 0, value: 'v', lease: 0x1fn }],
      [{ type: 'DELETE', key: '/a', revision: 3, subRevision: 0, lease: 0n }],
    ]);
  });

  it('matches an exact key or a prefix, nothing else', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    const exact = recorder();
    const prefix = recorder();
    s.watch('/a', {}, exact.cb);
    s.watch('/a/', { prefix: true }, prefix.cb);
    const txn = s.txnWrite();
    txn.put('/a', '');
    txn.put('/a/1', '');
    txn.put('/ab', '');
    txn.put('/a/2', '');
    txn.end();
    s.put('/b', '');
    expect(exact.got).toEqual(['PUT /a@2.0']);
    expect(prefix.got).toEqual(['PUT /a/1@2.1 PUT /a/2@2.3']);
  });

  it('stops after cancel, for exact and prefix watchers', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    const a = recorder();
    const p = recorder();
    const cancelA = s.watch('/a', {}, a.cb);
    const cancelP = s.watch('', { prefix: true }, p.cb);
    s.put('/a', '1');
    cancelA();
    cancelP();
    cancelP();
    s.put('/a', '2');
    expect(a.got).toEqual(['PUT /a@2.0']);
    expect(p.got).toEqual(['PUT /a@2.0']);
  });

  it('replays history from a past revision, one call per revision, then continues live', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    s.put('/a', '1'); // 2
    s.put('/b', '1'); // 3
    const txn = s.txnWrite(); // 4
    txn.put('/a', '2');
    txn.deleteRange('/b');
    txn.end();
    const r = recorder();
    s.watch('', { prefix: true, fromRevision: 3 }, r.cb);
    expect(r.got).toEqual(['PUT /b@3.0', 'PUT /a@4.0 DELETE /b@4.1']);
    s.put('/c', '1');
    expect(r.got.at(-1)).toBe('PUT /c@5.0');
    const onlyA = recorder();
    s.watch('/a', { fromRevision: 1 }, onlyA.cb);
    expect(onlyA.got).toEqual(['PUT /a@2.0', 'PUT /a@4.0']);
  });

  it('waits for a future fromRevision', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    const r = recorder();
    s.watch('/a', { fromRevision: 4 }, r.cb);
    s.put('/a', '1'); // 2
    s.put('/a', '2'); // 3
    s.put('/a', '3'); // 4
    expect(r.got).toEqual(['PUT /a@4.0']);
  });

  it('reports compaction when the history asked for was dropped by the cap', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1', eventLogCap: 2 });
    s.put('/a', '1'); // 2
    s.put('/a', '2'); // 3
    s.put('/a', '3'); // 4: the change at 2 is dropped
    const old = recorder();
    s.watch('/a', { fromRevision: 2 }, old.cb);
    s.put('/a', '4'); // 5: the change at 3 is dropped
    expect(old.errors).toEqual([{ compactRevision: 2 }]);
    expect(old.got).toEqual([]);
    const ok = recorder();
    s.watch('/a', { fromRevision: 4 }, ok.cb);
    expect(ok.got).toEqual(['PUT /a@4.0', 'PUT /a@5.0']);
    expect(ok.errors).toEqual([]);
  });

  it('keeps revisions in order for every watcher when a callback writes', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    const order: string[] = [];
    s.watch('', { prefix: true }, (evs) => {
      order.push(`w1 ${short(evs)}`);
      if (evs[0]?.key === '/a') s.put('/b', '');
    });
    s.watch('', { prefix: true }, (evs) => order.push(`w2 ${short(evs)}`));
    s.put('/a', '');
    expect(order).toEqual(['w1 PUT /a@2.0', 'w2 PUT /a@2.0', 'w1 PUT /b@3.0', 'w2 PUT /b@3.0']);
  });

  it('a watch opened inside a callback replays in order and gets no revision twice', () => {
    const s = newStore(new FakeLeaseIndex(), { member: 'n1' });
    s.put('/x', ''); // 2
    const late = recorder();
    s.watch('', { prefix: true }, (evs) => {
      if (evs[0]?.key === '/a') {
        s.put('/b', ''); // 4, queued behind 3
        s.watch('', { prefix: true, fromRevision: 2 }, late.cb);
      }
    });
    s.put('/a', ''); // 3
    s.put('/c', ''); // 5
    expect(late.got).toEqual(['PUT /x@2.0', 'PUT /a@3.0', 'PUT /b@4.0', 'PUT /c@5.0']);
  });
});
