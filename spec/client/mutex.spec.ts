// concurrency.Mutex (docs/lessor.md §5.4) and the lock-safety stories H1 and H2 of docs/bugs.md.
import { describe, expect, it } from 'vitest';
import {
  CLIENT_V3_4,
  FencedResource,
  goHex,
  isRpcError,
  Mutex,
  pauseClientFor,
  Session,
  type EtcdClient,
  type LockResult,
} from '../../src/client/index.js';
import type { RpcError } from '../../src/cluster/server/api.js';
import { MS, S, ok, world } from './harness.js';
import { fieldsOf } from '../../src/trace/trace.js';

type W = ReturnType<typeof world>;

/** Creates a session with `ttl` at `t`, then a mutex on `name`, handing it to `then`. */
function withMutex(
  w: W,
  c: EtcdClient,
  t: number,
  ttl: number,
  name: string,
  then: (m: Mutex) => void,
  opts = {},
): void {
  w.at(t, () => Session.create(c, { ttl }, (s) => then(new Mutex(ok(s), name, opts))));
}

interface Outcome {
  value?: LockResult | RpcError;
  at?: number;
}

const lockAt = (w: W, m: () => Mutex | undefined, t: number): Outcome => {
  const o: Outcome = {};
  w.at(t, () =>
    m()!.lock((r) => {
      o.value = r;
      o.at = w.sched.now() / S;
    }),
  );
  return o;
};

describe('Mutex', () => {
  it('keys are pfx/<%x lease>, Go formatting (a minus sign for negative IDs)', () => {
    expect(goHex(0x694d7a1b2c00n)).toBe('694d7a1b2c00');
    expect(goHex(-26n)).toBe('-1a');
  });

  it('the second client waits, and acquires once the first one’s session expires and its key is deleted (H1)', () => {
    const w = world();
    const c1 = w.client('c1');
    const c2 = w.client('c2');
    const resource = new FencedResource('ledger', w.sched, { trace: w.trace });
    let m1: Mutex | undefined;
    let m2: Mutex | undefined;
    withMutex(w, c1, 0, 5, '/locks/x', (m) => (m1 = m));
    withMutex(w, c2, 200 * MS, 5, '/locks/x', (m) => (m2 = m));
    const o1 = lockAt(w, () => m1, 100 * MS);
    const o2: Outcome = {};
    w.at(300 * MS, () =>
      m2!.lock((r) => {
        o2.value = r;
        o2.at = w.sched.now() / S;
        if (!isRpcError(r)) resource.write('c2', r.revision); // writes as soon as it holds the lock
      }),
    );
    w.at(1 * S, () => pauseClientFor(w.sched, c1.process, 30 * S, w.trace)); // c1's GC pause
    // c1 writes with its token at 0.2 s, and its next write is due at 2 s — inside the pause.
    w.at(200 * MS, () => resource.write('c1', m1!.myRevision));
    w.at(2 * S, () => c1.process.after(0, () => resource.write('c1', m1!.myRevision)));
    w.run(5.5 * S);
    expect(o1.at).toBe(0.102);
    expect(ok(o1.value!).revision).toBe(2);
    expect(m1!.key).toBe(`/locks/x/${goHex(m1!.session.lease)}`);
    expect(o2.value).toBeUndefined(); // still waiting on c1's key
    expect(m2!.myRevision).toBe(3); // its key exists, created after c1's
    expect(w.events('client-lock-waiting', 'c2').map((e) => fieldsOf(e).rev)).toEqual([3]);

    w.run(40 * S);
    // c1's last renewal arrived at 0.003 → expiry 5.003 → revoke on the 5.5 tick deletes its key (rev 4);
    // c2's watch sees the DELETE at 5.501, finds no older key (5.503), re-reads its own (5.505).
    expect(w.cluster.revokes.filter((r) => r.expired).map((r) => [r.t / S, r.keys, r.revision])).toEqual([
      [5.5, [m1!.key], 4],
    ]);
    expect(o2.at).toBe(5.505);
    expect(ok(o2.value!).revision).toBe(3);
    expect(ok(o2.value!).revision).toBeGreaterThan(ok(o1.value!).revision);
    // c1 woke at 31 s still believing it owns the lock; its session is done and its held write refused.
    expect(m1!.isOwner).toBe(true);
    expect(m2!.isOwner).toBe(true);
    expect(m1!.session.doneReason).toBe('deadline');
    expect(m1!.session.keepAlive.closedAt).toBe(31 * S);
    expect(resource.writes.map((x) => [x.who, x.token, x.accepted, x.at / S])).toEqual([
      ['c1', 2, true, 0.2],
      ['c2', 3, true, 5.505],
      ['c1', 2, false, 31],
    ]);
    expect([resource.accepted, resource.rejected, resource.highestToken]).toEqual([2, 1, 3]);
    expect(w.events('client-fenced-write', 'c1').at(-1)?.fields).toEqual({
      resource: 'ledger',
      token: 2,
      accepted: false,
    });
  });

  it('waiters queue by create revision, each watching its predecessor', () => {
    const w = world();
    const [c1, c2, c3] = ['c1', 'c2', 'c3'].map((n) => w.client(n)) as [EtcdClient, EtcdClient, EtcdClient];
    const ms: (Mutex | undefined)[] = [];
    withMutex(w, c1, 0, 60, '/locks/q', (m) => (ms[0] = m));
    withMutex(w, c2, 0, 60, '/locks/q', (m) => (ms[1] = m));
    withMutex(w, c3, 0, 60, '/locks/q', (m) => (ms[2] = m));
    const o = [lockAt(w, () => ms[0], 1 * S), lockAt(w, () => ms[2], 2 * S), lockAt(w, () => ms[1], 3 * S)];
    // c3 queued before c2: c3 gets revision 3, c2 revision 4 and watches c3's key, not c1's.
    w.at(5 * S, () => ms[0]!.unlock());
    w.at(8 * S, () => ms[2]!.unlock());
    w.run(10 * S);
    expect(o.map((x) => [x.at, ok(x.value!).revision])).toEqual([
      [1.002, 2],
      // c1's delete lands at 5.001 → DELETE event 5.002 → no older key (5.004) → own key still there (5.006).
      [5.006, 3],
      [8.006, 4], // c2 ignored c1's release: it was watching c3's key
    ]);
    expect(w.events('client-lock-waiting').map((e) => [e.member, fieldsOf(e).rev])).toEqual([
      ['c3', 3],
      ['c2', 4],
    ]);
  });

  it('3.5: a waiter whose own key vanished while it waited gets ErrSessionExpired (H2)', () => {
    const w = world();
    const c1 = w.client('c1');
    const c2 = w.client('c2');
    let m1: Mutex | undefined;
    let m2: Mutex | undefined;
    withMutex(w, c1, 0, 60, '/locks/h2', (m) => (m1 = m));
    withMutex(w, c2, 0, 60, '/locks/h2', (m) => (m2 = m));
    lockAt(w, () => m1, 100 * MS);
    const o2 = lockAt(w, () => m2, 300 * MS);
    w.at(3 * S, () => w.cluster.revokeNow(m2!.session.lease)); // c2's lease lost (its keepalives did not get through)
    w.at(4 * S, () => m1!.unlock());
    w.run(6 * S);
    expect(isRpcError(o2.value) && o2.value.name).toBe('ErrSessionExpired');
    expect(o2.at).toBe(4.006);
    expect(m2!.isOwner).toBe(false);
  });

  it(
    '3.4 (lockSkipsPostWaitCheck, etcd#11456): ' +
      'the same waiter is told it holds the lock, ' +
      'next to a second holder',
    () => {
      const w = world();
      const [c1, c2, c3] = ['c1', 'c2', 'c3'].map((n) => w.client(n)) as [EtcdClient, EtcdClient, EtcdClient];
      let m1: Mutex | undefined;
      let m2: Mutex | undefined;
      let m3: Mutex | undefined;
      withMutex(w, c1, 0, 60, '/locks/h2', (m) => (m1 = m), { profile: CLIENT_V3_4 });
      withMutex(w, c2, 0, 60, '/locks/h2', (m) => (m2 = m), { profile: CLIENT_V3_4 });
      withMutex(w, c3, 0, 60, '/locks/h2', (m) => (m3 = m), { profile: CLIENT_V3_4 });
      lockAt(w, () => m1, 100 * MS);
      const o2 = lockAt(w, () => m2, 300 * MS);
      w.at(3 * S, () => w.cluster.revokeNow(m2!.session.lease));
      w.at(4 * S, () => m1!.unlock());
      const o3 = lockAt(w, () => m3, 5 * S);
      w.run(6 * S);
      expect(o2.at).toBe(4.004); // one round trip earlier than 3.5: no re-read of its own key
      expect(ok(o2.value!).revision).toBe(3);
      expect(w.cluster.getKey(m2!.key)).toBeUndefined();
      expect(ok(o3.value!).revision).toBe(6);
      expect([m2!.isOwner, m3!.isOwner]).toEqual([true, true]); // two clients believe they hold the lock
      // The override works the other way round too.
      expect(new Mutex(m1!.session, '/x', { profile: CLIENT_V3_4, lockSkipsPostWaitCheck: false }).profile.name).toBe(
        'v3.4',
      );
    },
  );

  it('TryLock: another owner → ErrLocked, and the attempt’s key is deleted again', () => {
    const w = world();
    const c1 = w.client('c1');
    const c2 = w.client('c2');
    let m1: Mutex | undefined;
    let m2: Mutex | undefined;
    withMutex(w, c1, 0, 60, '/locks/t', (m) => (m1 = m));
    withMutex(w, c2, 0, 60, '/locks/t', (m) => (m2 = m));
    lockAt(w, () => m1, 100 * MS);
    let r: LockResult | RpcError | undefined;
    w.at(300 * MS, () => m2!.tryLock((x) => (r = x)));
    w.run(1 * S);
    expect(isRpcError(r) && r.name).toBe('ErrLocked');
    expect(m2!.myRevision).toBe(-1);
    expect(w.cluster.revision).toBe(4); // c1's put (2), c2's put (3), c2's delete (4)
  });
});
