// seeds/000: "Implementing Lease Heartbeat Renewal with etcd" made reproducible. A TTL 9 lease holds
// /locks/payment-42; the keep-alive process is frozen (kill -STOP) for 12 s; etcd expires the lease and
// deletes the key; the frozen process must come back to a closed channel, a re-acquisition must get a
// strictly higher revision, and a fenced resource must refuse the stale token.
import { describe, expect, it } from 'vitest';
import { FencedResource, isRpcError, pauseClientFor, type KeepAliveChannel } from '../../src/client/index.js';
import { MS, S, capture, ok, world } from './harness.js';
import { fieldsOf } from '../../src/trace/trace.js';

const KEY = '/locks/payment-42';

describe('seed 000: lease heartbeat runbook', () => {
  it('etcdctl steps: grant 9, put --lease, keep-alive & then kill -STOP for 12 s', () => {
    const w = world();
    const ctl = w.client('ctl'); // the etcdctl invocations
    const ka = w.client('ka'); // `etcdctl lease keep-alive $LEASE_ID &`
    let lease = 0n;
    let token = 0;
    ctl.grant(9, (g) => {
      lease = ok(g).id;
      expect(ok(g).ttl).toBe(9);
      ctl.put(KEY, 'owner-1', { lease }, (p) => (token = ok(p).header.revision));
    });
    let ch: KeepAliveChannel | undefined;
    w.at(100 * MS, () => (ch = ka.keepAlive(lease)));
    w.at(1 * S, () => pauseClientFor(w.sched, ka.process, 12 * S, w.trace)); // kill -STOP; sleep 12; kill -CONT
    const got = capture<{ kvs: readonly unknown[] }>(w.sched);
    w.at(12.9 * S, () => ctl.get(KEY, {}, got.cb)); // etcdctl get /locks/payment-42
    const ttl = capture<{ ttl: number }>(w.sched);
    w.at(12.9 * S, () => ctl.timeToLive(lease, { keys: true }, ttl.cb)); // lease timetolive --keys

    w.run(12.99 * S);
    expect(token).toBe(2);
    // The server: last renew arrived at 0.101 → expiry 9.101 → revoked on the 9.5 lessor tick, key deleted.
    expect(w.cluster.revokes).toEqual([{ t: 9.5 * S, id: lease, expired: true, keys: [KEY], revision: 3 }]);
    expect(ok(got.value!).kvs).toEqual([]); // "expect empty output"
    expect(ok(ttl.value!).ttl).toBe(-1); // "lease … already expired"
    // Frozen: nothing sent after the pause began, and the channel cannot know yet.
    expect(w.times('client-keepalive-send', 'ka')).toEqual([0.1]);
    expect(ch!.alive).toBe(true);

    w.run(13 * S); // kill -CONT
    // The held deadline-loop pass runs first: deadline 0.102 + 9 = 9.102 is long gone.
    expect(ch!.alive).toBe(false);
    expect(ch!.closeReason).toBe('deadline');
    expect(ch!.closedAt).toBe(13 * S);
    expect(ka.unexpired(lease)).toBe(false);
    expect(w.times('client-keepalive-send', 'ka')).toEqual([0.1]); // no renewal of a dead lease after resume

    // "Re-run after a second acquisition; the revision must be strictly greater."
    let second = 0;
    w.at(14 * S, () =>
      ctl.grant(9, (g) => ctl.put(KEY, 'owner-1', { lease: ok(g).id }, (p) => (second = ok(p).header.revision))),
    );
    w.run(15 * S);
    expect(second).toBe(4);
    expect(second).toBeGreaterThan(token);
  });

  it('GC pause of the lock holder: a competitor takes the key, the stale token is fenced off', () => {
    const w = world();
    const c1 = w.client('c1');
    const c2 = w.client('c2');
    const resource = new FencedResource('payments', w.sched, { trace: w.trace });
    let t1 = 0;
    let ch1: KeepAliveChannel | undefined;
    c1.grant(9, (g) => {
      const lease = ok(g).id;
      c1.put(KEY, 'owner-1', { lease }, (p) => {
        t1 = ok(p).header.revision; // fencingToken := putResp.Header.Revision
        ch1 = c1.keepAlive(lease);
        resource.write('c1', t1, 'processing');
        // The next step of c1's critical section, due at 1.5 s: the GC pause holds it until 13 s.
        c1.process.after(1.5 * S - w.sched.now(), () => resource.write('c1', t1, 'captured'));
      });
    });
    w.at(1 * S, () => pauseClientFor(w.sched, c1.process, 12 * S, w.trace));

    // c2 acquires the lock key only if nobody holds it (create revision 0), every 500 ms until it can.
    let t2 = 0;
    const tryAcquire = (): void => {
      c2.grant(9, (g) => {
        const lease = ok(g).id;
        c2.txn(
          {
            compare: [{ key: KEY, target: 'CREATE', result: 'EQUAL', createRevision: 0 }],
            success: [{ op: 'Put', key: KEY, value: 'owner-2', lease }],
            failure: [],
          },
          (r) => {
            if (ok(r).succeeded) {
              t2 = ok(r).header.revision;
              resource.write('c2', t2, 'processing');
            } else {
              c2.revoke(lease, () => {});
              c2.process.after(500 * MS, tryAcquire);
            }
          },
        );
      });
    };
    w.at(2 * S, tryAcquire);
    w.run(20 * S);

    expect(t1).toBe(2);
    expect(w.cluster.revokes.filter((r) => r.expired)[0]).toMatchObject({
      t: 9.5 * S,
      expired: true,
      keys: [KEY],
      revision: 3,
    });
    expect(t2).toBe(4);
    expect(ch1!.closeReason).toBe('deadline');
    expect(resource.writes.map((x) => [x.who, x.token, x.accepted, x.at / S])).toEqual([
      ['c1', 2, true, 0.004],
      // c2 tries every 504 ms from 2.0 (grant, txn, 500 ms); the try starting at 9.56 is the first after the 9.5
      // revoke.
      ['c2', 4, true, 9.564],
      ['c1', 2, false, 13],
    ]);
    expect(resource.accepted).toBe(2);
    expect(resource.rejected).toBe(1);
    expect(resource.highestToken).toBe(4);
    expect(w.events('client-fenced-write', 'c1').map((e) => fieldsOf(e).accepted)).toEqual([true, false]);

    // c1 re-acquires from scratch after its loss: a fresh grant and put, a strictly higher revision.
    let t3 = 0;
    w.at(21 * S, () =>
      c1.grant(9, (g) =>
        c1.put('/locks/payment-43', 'owner-1', { lease: ok(g).id }, (p) => (t3 = ok(p).header.revision)),
      ),
    );
    w.run(22 * S);
    expect(t3).toBeGreaterThan(t2);
    expect(isRpcError(t3)).toBe(false);
  });
});
