// serve --playground's server side without a browser: the page and its event stream, what POST /fault
// accepts and refuses (and why), faults as served inputs in a record that replays, and the frames showing
// a clicked crash and restart. Every child is waited for.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/serve/inputs.js';
import { liveFaultOf } from '../../src/serve/live/faults.js';
import type { LiveFrame } from '../../src/serve/live/frame.js';
import { lessorSim, startServeChild, type ServeChild } from '../serve/child.js';

/** One HTTP request to the live view; `host` overrides the Host header. */
function call(
  url: string,
  path: string,
  opts: { method?: string; body?: string; type?: string; host?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const u = new URL(path, url);
    const req = request(
      u,
      {
        method: opts.method ?? 'GET',
        headers: { ...(opts.type ? { 'content-type': opts.type } : {}), ...(opts.host ? { host: opts.host } : {}) },
        timeout: 5_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer in 5 s`)));
    req.on('error', fail);
    req.end(opts.body);
  });
}

const fault = (url: string, body: object) =>
  call(url, '/fault', { method: 'POST', type: 'application/json', body: JSON.stringify(body) });

/** The next frame on /events that passes `want`, within `ms`. */
function frameWhere(url: string, want: (f: LiveFrame) => boolean, ms = 5_000): Promise<LiveFrame> {
  return new Promise((done, fail) => {
    const req = request(new URL('/events', url), (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const ev = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (!ev.startsWith('data: ')) continue;
          const f = JSON.parse(ev.slice(6)) as LiveFrame;
          if (want(f)) {
            clearTimeout(timer);
            req.destroy();
            return done(f);
          }
        }
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      fail(new Error(`no such frame in ${ms} ms`));
    }, ms);
    req.on('error', () => {});
    req.end();
  });
}

describe('serve --playground: the live view server', () => {
  let work: string;
  let serve: ServeChild;
  let url: string;
  let record: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'lessor-sim-live-server-'));
    record = join(work, 'served.jsonl');
    serve = await startServeChild(['--playground', '--record', record]);
    url = serve.stdout.find((l) => l.startsWith('# playground: '))!.replace(/^.* at /, '');
  }, 120_000);

  afterAll(async () => {
    if (serve?.child.exitCode === null) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('prints its URL before the ready line and serves the page on 127.0.0.1 only', async () => {
    const i = serve.stdout.findIndex((l) => l.startsWith('# playground: '));
    expect(i).toBeGreaterThan(-1);
    expect(i).toBeLessThan(serve.stdout.findIndex((l) => l.startsWith('# ready')));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await call(url, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>lessor-sim serve: live view</title>');
    // A page elsewhere reaching this port by another name (DNS rebinding) gets nothing.
    expect((await call(url, '/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await call(url, '/nothing')).status).toBe(404);
  });

  it('refuses faults that are not JSON, not a known action or member, or do not fit the cluster now', async () => {
    // A form post (what another site could send without a preflight) is refused before it is read.
    const form = await call(url, '/fault', { method: 'POST', type: 'text/plain', body: '{"action":"heal"}' });
    expect(form.status).toBe(415);
    expect((await call(url, '/fault', { method: 'POST', type: 'application/json', body: '{' })).status).toBe(400);
    const bad = await fault(url, { action: 'explode', member: 'n1' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toContain('pause, resume, crash, restart, isolate, heal, transfer-leader');
    expect(JSON.parse((await fault(url, { action: 'pause', member: 'n9' })).body).error).toBe(
      'member must be one of n1, n2, n3',
    );
    const restart = await fault(url, { action: 'restart', member: 'n3' });
    expect(restart.status).toBe(409);
    expect(JSON.parse(restart.body).error).toBe('n3 is running; only a crashed member can restart');
    expect(JSON.parse((await fault(url, { action: 'resume', member: 'n3' })).body).error).toBe('n3 is not paused');
  });

  it('injects a crash, an isolation and their undoing; frames show each; the record replays to the hash', async () => {
    const crash = await fault(url, { action: 'crash', member: 'n3' });
    expect(crash.status).toBe(200);
    const at = JSON.parse(crash.body).t as number;
    const crashed = await frameWhere(url, (f) => f.snap.members.find((m) => m.name === 'n3')?.status === 'crashed');
    expect(crashed.t).toBeGreaterThanOrEqual(at);
    expect(crashed.faults.map((e) => `${e.member} ${e.kind}`)).toContain('n3 member-crash');
    expect((await fault(url, { action: 'restart', member: 'n3' })).status).toBe(200);
    await frameWhere(url, (f) => f.snap.members.find((m) => m.name === 'n3')?.status === 'running');
    expect((await fault(url, { action: 'isolate', member: 'n2' })).status).toBe(200);
    const cut = await frameWhere(url, (f) => f.faults.some((e) => e.kind === 'net-partition'));
    expect(cut.faults.find((e) => e.kind === 'net-partition')!.fields).toEqual({ groups: [['n2'], ['n1', 'n3']] });
    expect((await fault(url, { action: 'heal' })).status).toBe(200);
    await frameWhere(url, (f) => f.faults.some((e) => e.kind === 'net-heal'));

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const hash = serve.stdout.map((l) => /sha256 ([0-9a-f]{64})/.exec(l)?.[1]).find((h) => h !== undefined)!;
    const rec = parseRecord(readFileSync(record, 'utf8'));
    if (typeof rec === 'string') throw new Error(rec);
    // Only the faults that acted are inputs, in the order clicked.
    expect(rec.inputs.filter((i) => i.kind === 'fault').map((i) => `${i.action} ${i.member ?? ''}`)).toEqual([
      'crash n3',
      'restart n3',
      'isolate n2',
      'heal ',
    ]);
    for (let i = 0; i < 2; i++) expect(lessorSim(['run', '--input', record]).stdout).toContain(hash);
    const trace = lessorSim(['trace', '--input', record]).stdout;
    expect(trace).toMatch(/ sim served-fault - action=crash member=n3\n.* n3 member-crash /);
    expect(trace).toMatch(/ sim served-fault - action=heal\n.* sim net-heal /);
  }, 60_000);

  it('reads a fault from a request body only with a known action and member', () => {
    expect(liveFaultOf({ action: 'heal', member: 'zz' }, ['n1'])).toEqual({ action: 'heal' });
    expect(liveFaultOf({ action: 'transfer-leader', member: 'n1' }, ['n1'])).toEqual({
      action: 'transfer-leader',
      member: 'n1',
    });
    expect(liveFaultOf('pause', ['n1'])).toBe('expected a JSON object {"action":...,"member":...}');
    expect(liveFaultOf({ action: 'pause' }, ['n1'])).toBe('member must be one of n1');
  });
});
