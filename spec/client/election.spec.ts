// concurrency.Election on the Mutex's key scheme: Campaign, Proclaim, Resign, Observe.
import { describe, expect, it } from 'vitest';
import { Election, isRpcError, Session, type LeaderView } from '../../src/client/index.js';
import type { ResponseHeader, RpcError } from '../../src/cluster/server/api.js';
import { MS, S, ok, world } from './harness.js';

type Answer = ResponseHeader | RpcError | undefined;

describe('Election', () => {
  it('a Proclaim after the candidate key was taken fails with ErrElectionNotLeader; Resign deletes nothing', () => {
    const w = world();
    const c1 = w.client('c1');
    let e: Election | undefined;
    const answers: Record<string, Answer> = {};
    Session.create(c1, { ttl: 30 }, (s) => (e = new Election(ok(s), '/e')));
    w.at(100 * MS, () => e!.campaign('a', (r) => (answers.campaign = r)));
    // Someone deletes the candidate key behind the election's back: its create revision is gone.
    w.at(200 * MS, () => c1.delete(`/e/${e!.session.lease.toString(16)}`, () => {}));
    w.at(300 * MS, () => e!.proclaim('b', (r) => (answers.proclaim = r)));
    w.at(400 * MS, () => e!.resign((r) => (answers.resign = r)));
    w.run(1 * S);
    expect(isRpcError(answers.campaign)).toBe(false);
    expect(answers.proclaim).toMatchObject({ name: 'ErrElectionNotLeader' });
    // As in Go, Resign still sends its Txn (on the emptied key); the compare fails and nothing changes.
    expect(answers.resign).toMatchObject({ revision: 3 });
  });

  it('Observe waits for the first candidate, then reports each Proclaim and the next leader', () => {
    const w = world();
    const c1 = w.client('c1');
    const c2 = w.client('c2');
    let e1: Election | undefined;
    let e2: Election | undefined;
    const seen: LeaderView[] = [];
    Session.create(c1, { ttl: 30 }, (s) => (e1 = new Election(ok(s), '/e')));
    Session.create(c2, { ttl: 30 }, (s) => (e2 = new Election(ok(s), '/e')));
    w.at(100 * MS, () => e2!.observe((v) => seen.push(v)));
    w.at(200 * MS, () => e1!.campaign('one', () => {}));
    w.at(300 * MS, () => e2!.campaign('two', () => {}));
    w.at(400 * MS, () => e1!.proclaim('one-again', () => {}));
    w.at(500 * MS, () => e1!.resign(() => {}));
    w.run(1 * S);
    expect(seen.map((v) => v.value)).toEqual(['one', 'one-again', 'two']);
    expect(seen[2]!.key).toBe(`/e/${e2!.session.lease.toString(16)}`);
  });
});
