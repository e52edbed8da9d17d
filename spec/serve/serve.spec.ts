// serve through a bare gRPC client: headers as the member knows them, etcd's error codes and messages,
// the keep-alive stream's semantics, and a recorded run replaying to the served run's trace hash.
import { status } from '@grpc/grpc-js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import { parseRecord } from '../../src/serve/inputs.js';
import { replayServed } from '../../src/serve/replay-record.js';
import { defaultCluster } from '../../src/serve/default-cluster.js';
import { startServe, type Served } from './harness.js';
import { WireClient, b64, isStatus } from './wire-client.js';

type Json = Record<string, unknown>;

describe('serve, the default cluster through gRPC', () => {
  let served: Served;
  let n1: WireClient;
  let n2: WireClient;
  const dir = mkdtempSync(join(tmpdir(), 'serve-spec-'));
  const record = join(dir, 'record.jsonl');

  beforeAll(async () => {
    served = await startServe({ record });
    n1 = new WireClient(served.endpoints.n1!);
    n2 = new WireClient(served.endpoints.n2!);
  });
  afterAll(async () => {
    n1?.close();
    n2?.close();
    await served?.stop();
  });

  it('prints an endpoint per member, and export lines a shell can eval', () => {
    expect(Object.keys(served.endpoints)).toEqual(['n1', 'n2', 'n3']);
    const urls = Object.values(served.endpoints).map((e) => `http://${e}`);
    expect(served.stdout).toContain(`export ETCDCTL_ENDPOINTS=${urls.join(',')}`);
    expect(new Set(Object.values(served.memberIds)).size).toBe(3);
  });

  it('answers with headers as the answering member knows them', async () => {
    const put = (await n2.unary('KV', 'Put', { key: b64('h'), value: b64('1') })) as Json;
    const header = put.header as Json;
    expect(header.cluster_id).toBe(served.clusterId);
    expect(header.member_id).toBe(served.memberIds.n2);
    expect(header.raft_term).toBe('1');
    const rev = Number(header.revision);
    const again = (await n1.unary('KV', 'Put', { key: b64('h'), value: b64('2') })) as Json;
    expect((again.header as Json).member_id).toBe(served.memberIds.n1);
    expect(Number((again.header as Json).revision)).toBe(rev + 1);
    const get = (await n1.unary('KV', 'Range', { key: b64('h') })) as Json;
    expect((get.kvs as Json[]).map((kv) => Buffer.from(String(kv.value), 'base64').toString())).toEqual(['2']);
    expect(Number((get.header as Json).revision)).toBe(rev + 1);
    const st = (await n2.unary('Maintenance', 'Status', {})) as Json;
    expect(st.leader).toBe(served.memberIds.n1);
    expect((st.header as Json).member_id).toBe(served.memberIds.n2);
  });

  it("refuses with etcd's codes and messages", async () => {
    expect(await n1.unary('Lease', 'LeaseRevoke', { ID: '12345' })).toEqual({
      code: status.NOT_FOUND,
      details: 'etcdserver: requested lease not found',
    });
    expect(await n1.unary('Auth', 'Authenticate', { name: 'root', password: 'x' })).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'etcdserver: authentication is not enabled',
    });
    expect(await n1.unary('KV', 'Put', { key: '', value: b64('v') })).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'etcdserver: key is not provided',
    });
    const ttl = (await n1.unary('Lease', 'LeaseTimeToLive', { ID: '12345' })) as Json;
    expect(ttl.TTL).toBe('-1');
  });

  it('keeps many leases alive on one stream, in order; a half-closed one ends with OK after its answers', async () => {
    const a = (await n1.unary('Lease', 'LeaseGrant', { TTL: '30', ID: '0' })) as Json;
    const b = (await n1.unary('Lease', 'LeaseGrant', { TTL: '20', ID: '0' })) as Json;
    const ka = n2.stream('Lease', 'LeaseKeepAlive', true);
    ka.send({ ID: a.ID });
    ka.send({ ID: b.ID });
    ka.send({ ID: '777' });
    ka.call.end();
    const end = await ka.ended;
    expect(end.code).toBe(status.OK);
    expect(ka.received.map((r) => [r.ID, r.TTL])).toEqual([
      [a.ID, '30'],
      [b.ID, '20'],
      ['777', '0'],
    ]);
    expect((ka.received[0]!.header as Json).member_id).toBe(served.memberIds.n2);
  });

  it('answers TTL 0 for a revoked lease on an open stream, and a cancelled stream ends at once', async () => {
    const a = (await n1.unary('Lease', 'LeaseGrant', { TTL: '30', ID: '0' })) as Json;
    const ka = n1.stream('Lease', 'LeaseKeepAlive');
    ka.send({ ID: a.ID });
    await ka.waitFor(1);
    expect(isStatus(await n2.unary('Lease', 'LeaseRevoke', { ID: a.ID }))).toBe(false);
    ka.send({ ID: a.ID });
    const [, second] = await ka.waitFor(2);
    expect(second!.TTL).toBe('0');
    ka.call.cancel();
    expect((await ka.ended).code).toBe(status.CANCELLED);
  });

  it('answers UNIMPLEMENTED for a method it does not serve', async () => {
    // Hash is not in serve's protos: the path is answered by the gRPC server itself.
    const c = new WireClient(served.endpoints.n1!);
    const r = await new Promise<number>((done) => {
      c.client('Maintenance').makeUnaryRequest(
        '/etcdserverpb.Maintenance/Hash',
        () => Buffer.alloc(0),
        (b: Buffer) => b,
        {},
        (e) => done(e?.code ?? -1),
      );
    });
    c.close();
    expect(r).toBe(status.UNIMPLEMENTED);
  });

  it('watches a prefix: created first, then the events, each answer headed by the member', async () => {
    const w = n1.stream('Watch', 'Watch');
    w.send({ create_request: { key: b64('w/'), range_end: b64('w0') } });
    const [created] = await w.waitFor(1);
    expect(created!.created).toBe(true);
    await n2.unary('KV', 'Put', { key: b64('w/a'), value: b64('1') });
    await n2.unary('KV', 'Put', { key: b64('x'), value: b64('1') });
    await n2.unary('KV', 'Put', { key: b64('w/b'), value: b64('2') });
    const got = await w.waitFor(3);
    const keys = got
      .slice(1)
      .flatMap((m) => (m.events as Json[]).map((e) => Buffer.from(String((e.kv as Json).key), 'base64').toString()));
    expect(keys).toEqual(['w/a', 'w/b']);
    w.call.cancel();
  });

  it('records what it served, and the record replays to the served trace hash, twice', async () => {
    const code = await served.stop();
    expect(code).toBe(0);
    const hashLine = served.stdout.find((l) => l.startsWith('trace sha256 '));
    expect(hashLine).toBeDefined();
    const rec = parseRecord(readFileSync(record, 'utf8'));
    if (typeof rec === 'string') throw new Error(rec);
    expect(rec.inputs.some((i) => i.kind === 'half-close')).toBe(true);
    expect(rec.inputs.some((i) => i.kind === 'open' && i.requireLeader)).toBe(true);
    const hashes = [1, 2].map(() => replayServed(defaultCluster(), {}, rec).trace.hash());
    expect(hashes[0]).toBe(hashes[1]);
    expect(`trace sha256 ${hashes[0]}`).toBe(hashLine);
  });
});

describe('serve, require-leader per stream (n3 cut off from n1 and n2 at 1 s)', () => {
  let served: Served;
  let n3: WireClient;
  beforeAll(async () => {
    const p = parseScenario(
      [
        'name: cut-off',
        'profile: v3.4',
        'duration: 600s',
        'steps:',
        '  - at: 1s',
        '    partition: { groups: [[n1, n2], [n3]] }',
        '',
      ].join('\n'),
      'cut-off.yaml',
    );
    if (!p.ok) throw new Error('the spec scenario does not parse');
    served = await startServe({ scenario: p.scenario });
    n3 = new WireClient(served.endpoints.n3!);
  });
  afterAll(async () => {
    n3?.close();
    await served?.stop();
  });

  it('ends a keep-alive stream that carries hasleader with "no leader", and keeps one that does not', async () => {
    const plain = n3.stream('Lease', 'LeaseKeepAlive', false);
    let plainEnded = false;
    void plain.ended.then(() => {
      plainEnded = true;
    });
    let end: { code: number; details: string } | undefined;
    // Until n3 has noticed it lost its leader (an election timeout after the partition, however slow the machine).
    for (let i = 0; i < 120 && end?.details !== 'etcdserver: no leader'; i++) {
      const hl = n3.stream('Lease', 'LeaseKeepAlive', true);
      end = await Promise.race([hl.ended, new Promise<undefined>((r) => setTimeout(() => r(undefined), 500))]);
      if (end === undefined) hl.call.cancel();
    }
    expect(end).toEqual({ code: status.UNAVAILABLE, details: 'etcdserver: no leader' });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(plainEnded).toBe(false);
    plain.call.cancel();
  });
});
