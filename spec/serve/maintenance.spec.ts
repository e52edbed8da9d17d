// serve's cluster and maintenance answers beyond Status, through a bare gRPC client: MemberList's peer URLs,
// Alarm, Defragment, HashKV (etcd's own hash for the same history) and MoveLeader, each as etcd 3.4.23
// answers a cluster without alarms.
import { status } from '@grpc/grpc-js';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Served } from './harness.js';
import { WireClient, b64 } from './wire-client.js';

type Json = Record<string, unknown>;

/** Whether something accepts TCP connections on the address. */
const listening = (hostPort: string): Promise<boolean> =>
  new Promise((done) => {
    const [host, port] = hostPort.split(':');
    const s = connect(Number(port), host!);
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });

describe('serve, maintenance and cluster answers', () => {
  let served: Served;
  const c: Record<string, WireClient> = {};

  beforeAll(async () => {
    served = await startServe();
    for (const [n, e] of Object.entries(served.endpoints)) c[n] = new WireClient(e);
  });
  afterAll(async () => {
    for (const w of Object.values(c)) w.close();
    await served?.stop();
  });

  it("hashes the key-value state as etcd does: the script's history gives etcd's own 3651995044", async () => {
    // The default cluster starts at revision 1 with no keys, as a fresh etcd: these are revisions 2 and 3.
    await c.n1!.unary('KV', 'Put', { key: b64('c/k'), value: b64('v') });
    await c.n1!.unary('KV', 'Put', { key: b64('c/auth'), value: b64('v') });
    const hashes: Json[] = [];
    for (const n of ['n1', 'n2', 'n3']) {
      // A follower answers from its own store: ask until it has applied the second put.
      let h: Json;
      do h = (await c[n]!.unary('Maintenance', 'HashKV', { revision: '0' })) as Json;
      while ((h.header as Json).revision !== '3');
      hashes.push(h);
    }
    expect(hashes.map((h) => h.hash)).toEqual([3651995044, 3651995044, 3651995044]);
    expect(hashes.map((h) => h.compact_revision)).toEqual(['-1', '-1', '-1']);
    expect((hashes[1]!.header as Json).member_id).toBe(served.memberIds.n2);
    const atTwo = (await c.n1!.unary('Maintenance', 'HashKV', { revision: '2' })) as Json;
    expect(atTwo.hash).not.toBe(3651995044);
    expect((atTwo.header as Json).revision).toBe('3');
    expect(await c.n1!.unary('Maintenance', 'HashKV', { revision: '9' })).toEqual({
      code: status.OUT_OF_RANGE,
      details: 'etcdserver: mvcc: required revision is a future revision',
    });
  });

  it('hashes only what a compaction keeps and what is live at the revision, as etcd does (its numbers)', async () => {
    // Real etcd 3.4.23, after the two puts above, answered these four hashes to the same steps.
    const hash = async (): Promise<Json> => (await c.n1!.unary('Maintenance', 'HashKV', { revision: '0' })) as Json;
    await c.n1!.unary('KV', 'Put', { key: b64('c/k'), value: b64('w') });
    expect(await hash()).toMatchObject({ hash: 40912610, compact_revision: '-1' });
    // Compaction at 3 keeps c/k's revision-2 row, but it is not live at 4, so it is no longer hashed.
    await c.n1!.unary('KV', 'Compact', { revision: '3', physical: true });
    expect(await hash()).toMatchObject({ hash: 1206419704, compact_revision: '3' });
    await c.n1!.unary('KV', 'Put', { key: b64('c/auth'), value: b64('x') });
    await c.n1!.unary('KV', 'DeleteRange', { key: b64('c/k') });
    expect(await hash()).toMatchObject({ hash: 841262972, compact_revision: '3' });
    await c.n1!.unary('KV', 'Compact', { revision: '6', physical: true });
    expect(await hash()).toMatchObject({ hash: 3772852611, compact_revision: '6' });
    expect(await c.n1!.unary('Maintenance', 'HashKV', { revision: '5' })).toEqual({
      code: status.OUT_OF_RANGE,
      details: 'etcdserver: mvcc: required revision has been compacted',
    });
  });

  it('advertises a loopback peer URL per member, apart from the client URLs, where nothing listens', async () => {
    const list = (await c.n1!.unary('Cluster', 'MemberList', {})) as Json;
    const members = list.members as Json[];
    const peers = members.map((m) => (m.peerURLs as string[])[0]!);
    expect(peers.every((p) => /^http:\/\/127\.0\.0\.1:\d+$/.test(p))).toBe(true);
    const hostPorts = peers.map((p) => p.slice('http://'.length));
    expect(new Set(hostPorts).size).toBe(3);
    for (const hp of hostPorts) {
      expect(Object.values(served.endpoints)).not.toContain(hp);
      expect(await listening(hp)).toBe(false);
    }
  });

  it('lists no alarms and finds none to disarm; it has none to raise', async () => {
    for (const n of ['n1', 'n2', 'n3']) {
      expect(await c[n]!.unary('Maintenance', 'Alarm', { action: 'GET', memberID: '0', alarm: 'NONE' })).toEqual({
        header: null,
        alarms: [],
      });
    }
    const id = served.memberIds.n2!;
    expect(await c.n1!.unary('Maintenance', 'Alarm', { action: 'DEACTIVATE', memberID: id, alarm: 'NOSPACE' })).toEqual(
      { header: null, alarms: [] },
    );
    expect(await c.n1!.unary('Maintenance', 'Alarm', { action: 'ACTIVATE', memberID: id, alarm: 'NOSPACE' })).toEqual({
      code: status.UNIMPLEMENTED,
      details: 'lessor-sim serve: the model has no alarms to activate',
    });
  });

  it('defragments every member as a no-op that succeeds', async () => {
    for (const n of ['n1', 'n2', 'n3']) {
      expect(await c[n]!.unary('Maintenance', 'Defragment', {})).toEqual({ header: null });
    }
  });

  it('moves the leadership when the leader is asked, refusing a follower and an unknown transferee', async () => {
    const n2 = served.memberIds.n2!;
    expect(await c.n2!.unary('Maintenance', 'MoveLeader', { targetID: n2 })).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'etcdserver: not leader',
    });
    expect(await c.n1!.unary('Maintenance', 'MoveLeader', { targetID: '1234' })).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'etcdserver: bad leader transferee',
    });
    expect(((await c.n1!.unary('Maintenance', 'Status', {})) as Json).leader).toBe(served.memberIds.n1);
    expect(await c.n1!.unary('Maintenance', 'MoveLeader', { targetID: n2 })).toEqual({ header: null });
    // Answered once n1 sees n2 lead: every member then names n2.
    expect(((await c.n1!.unary('Maintenance', 'Status', {})) as Json).leader).toBe(n2);
    let st: Json;
    do st = (await c.n3!.unary('Maintenance', 'Status', {})) as Json;
    while (st.leader !== n2 && st.leader === served.memberIds.n1);
    expect(st.leader).toBe(n2);
  });
});
