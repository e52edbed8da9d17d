// Member faults as real clients see them on the wire, through etcdctl: a frozen member's port accepts but
// never answers, a crashed member's port refuses until it restarts, the survivors elect a leader; then the
// record of the served run replays to the served trace hash.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { etcdctl, lessorSim, startServeChild, untilVirtual, type ServeChild } from './child.js';

const dir = mkdtempSync(join(tmpdir(), 'serve-faults-'));
const scenario = join(dir, 'faults.yaml');
const record = join(dir, 'faults.jsonl');
// Long windows: the checks below only need to fall inside them, however loaded the machine is.
writeFileSync(
  scenario,
  [
    'name: serve-faults',
    'profile: v3.4',
    'cluster: { members: 5 }',
    'duration: 300s',
    'steps:',
    '  - at: 2s',
    '    pause: { member: n1 }',
    '  - at: 2s',
    '    crash: { member: n2 }',
    '  - at: 20s',
    '    restart: { member: n2 }',
    '',
  ].join('\n'),
);

/** How a TCP connection attempt to host:port ends: 'connected' or the socket error's code. */
function tcpConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const s = connect(Number(port), hostname);
    s.once('connect', () => {
      s.destroy();
      done('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? String(e)));
  });
}

// 5 members: n1 frozen and n2 crashed at 2 s, n2 restarted at 20 s.
describe('serve shows member faults on the wire', () => {
  let served: ServeChild;
  afterAll(() => {
    served?.child.kill('SIGKILL');
  });

  it('starts and serves etcdctl', async () => {
    served = await startServeChild([scenario, '--record', record]);
    const put = await etcdctl(['--endpoints', served.urls.n1!, 'put', 'k', 'v']);
    expect(put.stdout.trim()).toBe('OK');
  });

  it("refuses connections on a crashed member's port", async () => {
    await untilVirtual(served, 4_000);
    expect(await tcpConnect(served.urls.n2!)).toBe('ECONNREFUSED');
    const r = await etcdctl(['--endpoints', served.urls.n2!, '--command-timeout', '2s', 'get', 'k']);
    expect(r.code).not.toBe(0);
  });

  it("accepts connections on a frozen member's port but never answers", async () => {
    expect(await tcpConnect(served.urls.n1!)).toBe('connected');
    const r = await etcdctl(['--endpoints', served.urls.n1!, '--command-timeout', '2s', 'get', 'k']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('context deadline exceeded');
  });

  it('the surviving members elect a leader among them, and each answers with its own header', async () => {
    const survivors = ['n3', 'n4', 'n5'].map((n) => served.memberIds[n]);
    let leader = '';
    for (let i = 0; i < 60 && !survivors.includes(leader); i++) {
      const r = await etcdctl(['--endpoints', served.urls.n3!, 'endpoint', 'status', '-w', 'json']);
      // etcdctl prints the 64-bit IDs as JSON numbers (and leaves out a zero leader): read them as text.
      leader = /"leader":(\d+)/.exec(r.stdout)?.[1] ?? '';
      if (!survivors.includes(leader)) await new Promise((res) => setTimeout(res, 500));
    }
    expect(survivors).toContain(leader);
    const status = await etcdctl(['--endpoints', served.urls.n3!, 'endpoint', 'status', '-w', 'json']);
    expect(/"member_id":(\d+)/.exec(status.stdout)?.[1]).toBe(served.memberIds.n3);
  });

  it('a restarted member listens again and answers', async () => {
    await untilVirtual(served, 22_000);
    let r = await etcdctl(['--endpoints', served.urls.n2!, 'get', 'k']);
    for (let i = 0; i < 10 && r.code !== 0; i++) r = await etcdctl(['--endpoints', served.urls.n2!, 'get', 'k']);
    expect(r.stdout.trim().split('\n')).toEqual(['k', 'v']);
  });

  it('stops on SIGTERM with the verdicts so far, and the record replays to the same trace hash', async () => {
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    const hash = served.stdout.find((l) => l.startsWith('trace sha256 '));
    expect(hash).toBeDefined();
    for (let i = 0; i < 2; i++) {
      const r = lessorSim(['run', scenario, '--input', record, '-q']);
      expect(r.stdout.split('\n')).toContain(hash);
    }
  });
});
